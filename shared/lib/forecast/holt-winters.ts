/**
 * Additive Holt-Winters (triple exponential smoothing): level + trend + a seasonal profile of `period` days,
 * each updated by exponential smoothing. The smoothing weights are chosen by the smallest in-sample one-step
 * squared error over a small grid (docs/adr/0140-demand-forecast-method.md explains why a grid is enough).
 */

export interface HoltWintersParams {
  alpha: number;
  /** null: no trend term (the trend stays 0). */
  beta: number | null;
  gamma: number;
}

export interface HoltWintersFit {
  params: HoltWintersParams;
  period: number;
  level: number;
  trend: number;
  /** Seasonal terms indexed by day number modulo the period. */
  season: number[];
  /** Sum of squared one-step errors after the first two seasons (the initialisation window). */
  sse: number;
  /** Standard deviation of those one-step errors: the daily forecast uncertainty for safety stock. */
  sigma: number;
  length: number;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Runs the smoothing recursions over `y` with fixed weights. Needs at least two full seasons. */
export function fitHoltWinters(y: readonly number[], params: HoltWintersParams, period = 7): HoltWintersFit {
  const m = period;
  if (y.length < 2 * m) throw new RangeError(`Holt-Winters needs at least ${2 * m} days of history`);
  const { alpha, gamma } = params;
  const beta = params.beta ?? 0;
  const first = mean(y.slice(0, m));
  // Initial state from the first two seasons, placed so that a series a + b*t + s(t) is reproduced exactly:
  // the first season's mean sits at its middle day, so the level "before day 0" is first - b * (m + 1) / 2.
  let trend = params.beta === null ? 0 : (mean(y.slice(m, 2 * m)) - first) / m;
  let level = first - (trend * (m + 1)) / 2;
  const season = y.slice(0, m).map((v, i) => v - (level + trend * (i + 1)));

  let sse = 0;
  let counted = 0;
  for (let t = 0; t < y.length; t += 1) {
    const s = season[t % m]!;
    const error = y[t]! - (level + trend + s);
    if (t >= 2 * m) {
      sse += error * error;
      counted += 1;
    }
    const previous = level;
    level = alpha * (y[t]! - s) + (1 - alpha) * (level + trend);
    if (params.beta !== null) trend = beta * (level - previous) + (1 - beta) * trend;
    season[t % m] = gamma * (y[t]! - level) + (1 - gamma) * s;
  }
  return {
    params,
    period: m,
    level,
    trend,
    season,
    sse,
    sigma: counted > 1 ? Math.sqrt(sse / (counted - 1)) : 0,
    length: y.length,
  };
}

/** The next `horizon` days after the fitted history; demand cannot be negative, so forecasts stop at 0. */
export function forecastHoltWinters(fit: HoltWintersFit, horizon: number): number[] {
  return Array.from({ length: horizon }, (_, i) => {
    const h = i + 1;
    const value = fit.level + h * fit.trend + fit.season[(fit.length + i) % fit.period]!;
    return Math.max(0, value);
  });
}

const ALPHAS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8];
const BETAS: (number | null)[] = [null, 0.01, 0.05, 0.1];
const GAMMAS = [0.05, 0.1, 0.2, 0.4];

/** The grid's fit with the smallest in-sample one-step error (ties: the first, i.e. the smoothest). */
export function bestHoltWinters(y: readonly number[], period = 7): HoltWintersFit {
  let best: HoltWintersFit | null = null;
  for (const alpha of ALPHAS) {
    for (const beta of BETAS) {
      for (const gamma of GAMMAS) {
        const fit = fitHoltWinters(y, { alpha, beta, gamma }, period);
        if (!best || fit.sse < best.sse - 1e-9) best = fit;
      }
    }
  }
  return best!;
}
