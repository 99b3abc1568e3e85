/**
 * Demand forecast for one series of daily sales (one variant in one store), with its measured accuracy.
 *
 * 1. Hold out the last two weeks. Fit each candidate method on the days before them (Holt-Winters always;
 *    Croston/SBA too when the series is intermittent) and keep the one with the lower WAPE on the holdout.
 * 2. Measure the naive baseline (same weekday last week) on the same holdout.
 * 3. `show` is true only when the method beats the baseline there: a forecast that does worse than repeating
 *    last week is not shown (issue 14).
 * 4. Refit the chosen method on the whole history and forecast the next `horizon` days.
 * See docs/adr/0140-demand-forecast-method.md.
 */
import { seasonalNaive, wape } from './accuracy';
import { INTERMITTENT_ADI, averageDemandInterval, bestCroston, forecastCroston } from './croston';
import { bestHoltWinters, forecastHoltWinters } from './holt-winters';

export type ForecastMethod = 'holt-winters' | 'croston-sba' | 'seasonal-naive';

export interface DemandForecast {
  method: ForecastMethod;
  /** Expected units per day for the next `horizon` days. */
  forecast: number[];
  /** WAPE of the method on the held-out days (Infinity when it could not be measured). */
  wape: number;
  /** WAPE of the same-weekday-last-week baseline on the same days. */
  baselineWape: number;
  /** The method beat the baseline on the holdout: only then may the forecast be shown. */
  show: boolean;
  /** Standard deviation of the one-step daily error, for safety stock. */
  sigma: number;
}

export interface ForecastOptions {
  horizon: number;
  /** Days held out to measure accuracy (default 14). */
  holdout?: number;
  period?: number;
}

interface Candidate {
  method: Exclude<ForecastMethod, 'seasonal-naive'>;
  run(history: readonly number[], horizon: number): { forecast: number[]; sigma: number };
}

const holtWinters = (period: number): Candidate => ({
  method: 'holt-winters',
  run(history, horizon) {
    const fit = bestHoltWinters(history, period);
    return { forecast: forecastHoltWinters(fit, horizon), sigma: fit.sigma };
  },
});

const croston: Candidate = {
  method: 'croston-sba',
  run(history, horizon) {
    const fit = bestCroston(history);
    return { forecast: forecastCroston(fit, horizon), sigma: fit.sigma };
  },
};

/** Population standard deviation of day-to-day differences at lag `period`: the baseline's error scale. */
function naiveSigma(history: readonly number[], period: number): number {
  const diffs = history.slice(period).map((v, i) => v - history[i]!);
  if (diffs.length < 2) return 0;
  return Math.sqrt(diffs.reduce((a, d) => a + d * d, 0) / (diffs.length - 1));
}

export function forecastDemand(history: readonly number[], options: ForecastOptions): DemandForecast {
  const period = options.period ?? 7;
  const holdout = options.holdout ?? 14;
  const { horizon } = options;
  if (!Number.isInteger(horizon) || horizon < 1) throw new RangeError('horizon must be a positive whole number of days');
  if (history.some((v) => !Number.isFinite(v) || v < 0)) throw new RangeError('daily sales must be finite and >= 0');

  const train = history.slice(0, history.length - holdout);
  const actual = history.slice(history.length - holdout);
  // Too short to fit two seasons and still hold out two weeks: nothing measured, nothing shown.
  if (train.length < 2 * period) {
    const fallback = history.length >= period ? seasonalNaive(history, horizon, period) : Array<number>(horizon).fill(0);
    return {
      method: 'seasonal-naive',
      forecast: fallback,
      wape: Number.POSITIVE_INFINITY,
      baselineWape: Number.POSITIVE_INFINITY,
      show: false,
      sigma: naiveSigma(history, period),
    };
  }

  const candidates = [holtWinters(period)];
  if (averageDemandInterval(train) > INTERMITTENT_ADI) candidates.push(croston);

  let chosen = candidates[0]!;
  let chosenWape = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const score = wape(actual, candidate.run(train, holdout).forecast);
    if (score < chosenWape) {
      chosen = candidate;
      chosenWape = score;
    }
  }
  const baselineWape = wape(actual, seasonalNaive(train, holdout, period));
  const final = chosen.run(history, horizon);
  return {
    method: chosen.method,
    forecast: final.forecast,
    wape: chosenWape,
    baselineWape,
    show: chosenWape < baselineWape,
    sigma: final.sigma,
  };
}
