/**
 * Accuracy measures for demand forecasts. WAPE (weighted absolute percentage error) is the sum of absolute
 * errors over the sum of actual demand: unlike MAPE it is defined on days with zero sales and weights busy
 * days more, which is what a reorder decision cares about.
 */

/** sum |actual - forecast| / sum |actual|. With no demand at all: 0 if the forecast is all zeros, else Infinity. */
export function wape(actual: readonly number[], forecast: readonly number[]): number {
  if (actual.length !== forecast.length) throw new RangeError('actual and forecast must have the same length');
  let error = 0;
  let volume = 0;
  for (let i = 0; i < actual.length; i += 1) {
    error += Math.abs(actual[i]! - forecast[i]!);
    volume += Math.abs(actual[i]!);
  }
  if (volume === 0) return error === 0 ? 0 : Number.POSITIVE_INFINITY;
  return error / volume;
}

/**
 * The naive baseline: each future day repeats the same weekday of the last observed week
 * (the seasonal naive forecast with period 7).
 */
export function seasonalNaive(history: readonly number[], horizon: number, period = 7): number[] {
  if (history.length < period) throw new RangeError(`the seasonal naive forecast needs ${period} days of history`);
  const lastSeason = history.slice(history.length - period);
  return Array.from({ length: horizon }, (_, h) => lastSeason[h % period]!);
}
