/**
 * Croston's method with the Syntetos-Boylan approximation (SBA) for intermittent demand: smooth the size of
 * non-zero demands and the interval between them separately; the daily rate is size / interval, multiplied by
 * (1 - alpha / 2) to remove Croston's known upward bias.
 */

export interface CrostonFit {
  alpha: number;
  /** Smoothed size of a non-zero demand. */
  size: number;
  /** Smoothed number of days between non-zero demands. */
  interval: number;
  /** The flat daily forecast. */
  rate: number;
  sse: number;
  sigma: number;
}

export function fitCroston(y: readonly number[], alpha: number): CrostonFit {
  const first = y.findIndex((v) => v > 0);
  if (first < 0) return { alpha, size: 0, interval: 1, rate: 0, sse: 0, sigma: 0 };
  let size = y[first]!;
  let interval = first + 1;
  let since = 1;
  const bias = 1 - alpha / 2;
  let sse = 0;
  let counted = 0;
  for (let t = first + 1; t < y.length; t += 1) {
    const error = y[t]! - (bias * size) / interval;
    sse += error * error;
    counted += 1;
    if (y[t]! > 0) {
      size += alpha * (y[t]! - size);
      interval += alpha * (since - interval);
      since = 1;
    } else {
      since += 1;
    }
  }
  return {
    alpha,
    size,
    interval,
    rate: (bias * size) / interval,
    sse,
    sigma: counted > 1 ? Math.sqrt(sse / (counted - 1)) : 0,
  };
}

export const forecastCroston = (fit: CrostonFit, horizon: number): number[] =>
  Array.from({ length: horizon }, () => fit.rate);

const ALPHAS = [0.05, 0.1, 0.15, 0.2, 0.3];

export function bestCroston(y: readonly number[]): CrostonFit {
  return ALPHAS.map((alpha) => fitCroston(y, alpha)).reduce((best, fit) => (fit.sse < best.sse - 1e-9 ? fit : best));
}

/**
 * Average inter-demand interval (days per day with demand). Above 1.32 a series counts as intermittent
 * (Syntetos, Boylan and Croston 2005): Croston/SBA becomes a candidate next to Holt-Winters.
 */
export function averageDemandInterval(y: readonly number[]): number {
  const nonZero = y.filter((v) => v > 0).length;
  return nonZero === 0 ? Number.POSITIVE_INFINITY : y.length / nonZero;
}

export const INTERMITTENT_ADI = 1.32;
