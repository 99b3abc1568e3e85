import { describe, expect, it } from 'vitest';
import { seasonalNaive, wape } from './accuracy';
import { averageDemandInterval, bestCroston, fitCroston, forecastCroston } from './croston';
import { forecastDemand } from './forecast';
import { bestHoltWinters, fitHoltWinters, forecastHoltWinters } from './holt-winters';

const week = [10, 12, 14, 20, 30, 40, 8];
const weeks = (n: number, f: (t: number) => number) => Array.from({ length: n * 7 }, (_, t) => f(t));

describe('wape and the seasonal naive baseline', () => {
  it('weights absolute errors by volume', () => {
    expect(wape([10, 0, 30], [12, 1, 27])).toBeCloseTo(6 / 40, 12);
    expect(wape([0, 0], [0, 0])).toBe(0);
    expect(wape([0, 0], [1, 0])).toBe(Number.POSITIVE_INFINITY);
    expect(() => wape([1], [1, 2])).toThrow(RangeError);
  });

  it('repeats the same weekday of the last week', () => {
    expect(seasonalNaive([...week, 1, 2, 3, 4, 5, 6, 7], 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 1, 2]);
  });
});

describe('Holt-Winters', () => {
  it('forecasts a perfectly seasonal series exactly', () => {
    const fit = bestHoltWinters(weeks(8, (t) => week[t % 7]!));
    expect(fit.sse).toBeCloseTo(0, 9);
    forecastHoltWinters(fit, 14).forEach((v, i) => expect(v).toBeCloseTo(week[(56 + i) % 7]!, 9));
  });

  it('forecasts seasonality on a linear trend exactly', () => {
    const y = (t: number) => 50 + 0.5 * t + week[t % 7]!;
    const fit = bestHoltWinters(weeks(8, y));
    expect(fit.params.beta).not.toBeNull();
    forecastHoltWinters(fit, 10).forEach((v, i) => expect(v).toBeCloseTo(y(56 + i), 9));
  });

  it('forecasts a constant series as that constant', () => {
    const fit = fitHoltWinters(Array(30).fill(5), { alpha: 0.3, beta: 0.1, gamma: 0.2 });
    forecastHoltWinters(fit, 7).forEach((v) => expect(v).toBeCloseTo(5, 12));
  });

  it('never forecasts negative demand and needs two seasons', () => {
    const falling = weeks(4, (t) => Math.max(0, 60 - 2 * t));
    expect(Math.min(...forecastHoltWinters(bestHoltWinters(falling), 28))).toBe(0);
    expect(() => fitHoltWinters([1, 2, 3], { alpha: 0.1, beta: null, gamma: 0.1 })).toThrow(RangeError);
  });
});

describe('Croston / SBA', () => {
  const everyThirdDay = Array.from({ length: 60 }, (_, t) => (t % 3 === 2 ? 3 : 0));

  it('estimates size, interval and the bias-corrected rate', () => {
    const fit = fitCroston(everyThirdDay, 0.1);
    expect(fit.size).toBeCloseTo(3, 12);
    expect(fit.interval).toBeCloseTo(3, 12);
    expect(fit.rate).toBeCloseTo(0.95, 12); // (1 - 0.1 / 2) * 3 / 3
    expect(forecastCroston(fit, 3)).toEqual([fit.rate, fit.rate, fit.rate]);
    expect(averageDemandInterval(everyThirdDay)).toBe(3);
  });

  it('forecasts zero for a series that never sold', () => {
    expect(bestCroston(Array(20).fill(0)).rate).toBe(0);
  });
});

describe('forecastDemand', () => {
  it('shows a forecast that beats the baseline, with both errors', () => {
    const result = forecastDemand(weeks(10, (t) => 50 + 0.5 * t + week[t % 7]!), { horizon: 7 });
    expect(result.method).toBe('holt-winters');
    expect(result.wape).toBeCloseTo(0, 9);
    expect(result.baselineWape).toBeGreaterThan(0.05);
    expect(result.show).toBe(true);
    expect(result.forecast).toHaveLength(7);
  });

  it('hides a forecast that only ties the baseline (it must beat it)', () => {
    const result = forecastDemand(weeks(8, (t) => week[t % 7]!), { horizon: 7 });
    expect(result.wape).toBeCloseTo(0, 9);
    expect(result.baselineWape).toBe(0);
    expect(result.show).toBe(false);
  });

  it('hides the forecast when the history is too short to measure', () => {
    const result = forecastDemand(weeks(3, (t) => week[t % 7]!), { horizon: 7 });
    expect(result).toMatchObject({ method: 'seasonal-naive', show: false, wape: Number.POSITIVE_INFINITY });
    expect(result.forecast).toEqual([...week]);
  });

  it('tries Croston on intermittent series and keeps the lower holdout error', () => {
    const y = Array.from({ length: 84 }, (_, t) => (t % 3 === 2 ? 3 : 0));
    const result = forecastDemand(y, { horizon: 5 });
    const train = y.slice(0, 70);
    const actual = y.slice(70);
    const hw = wape(actual, forecastHoltWinters(bestHoltWinters(train), 14));
    const cr = wape(actual, forecastCroston(bestCroston(train), 14));
    expect(result.wape).toBeCloseTo(Math.min(hw, cr), 12);
    expect(result.method).toBe(cr < hw ? 'croston-sba' : 'holt-winters');
    expect(result.baselineWape).toBeCloseTo(wape(actual, seasonalNaive(train, 14)), 12);
    expect(result.show).toBe(result.wape < result.baselineWape);
  });

  it('refuses negative sales and a bad horizon', () => {
    expect(() => forecastDemand([1, -1, 2], { horizon: 3 })).toThrow(RangeError);
    expect(() => forecastDemand(week, { horizon: 0 })).toThrow(RangeError);
  });
});
