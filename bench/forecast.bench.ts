/**
 * Forecast accuracy (issue 14): WAPE of the demand forecast (shared/lib/forecast) against the naive
 * same-weekday-last-week baseline, on the last two weeks held out of a synthetic data set with a known answer:
 * many daily series of a year and a half with weekly and yearly seasonality, a slow trend and Poisson noise,
 * a fifth of them slow movers (intermittent). The "oracle" line is the WAPE of the true expected demand, the
 * floor no method can beat on average (the noise). Deterministic (seeded), no stack needed.
 * Exits non-zero if the method does not beat the baseline overall.
 */
import { forecastDemand, seasonalNaive } from '../shared/lib/forecast';

const SERIES = Number(process.env.FORECAST_SERIES ?? 600);
const DAYS = 540;
const HOLDOUT = 14;

/** mulberry32: a small seeded PRNG so every run measures the same data. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Knuth's Poisson sampler for small means, a rounded normal approximation above 30. */
function poisson(mean: number, random: () => number): number {
  if (mean <= 0) return 0;
  if (mean > 30) {
    const u = Math.max(random(), 1e-12);
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal));
  }
  const limit = Math.exp(-mean);
  let k = 0;
  let p = random();
  while (p > limit) {
    k += 1;
    p *= random();
  }
  return k;
}

interface Totals {
  method: number;
  baseline: number;
  oracle: number;
  volume: number;
}

const add = (totals: Totals, actual: number[], method: number[], baseline: number[], oracle: number[]) => {
  for (let i = 0; i < actual.length; i += 1) {
    totals.method += Math.abs(actual[i]! - method[i]!);
    totals.baseline += Math.abs(actual[i]! - baseline[i]!);
    totals.oracle += Math.abs(actual[i]! - oracle[i]!);
    totals.volume += actual[i]!;
  }
};

const random = rng(20261122);
const all: Totals = { method: 0, baseline: 0, oracle: 0, volume: 0 };
const shown: Totals = { method: 0, baseline: 0, oracle: 0, volume: 0 };
const slow: Totals = { method: 0, baseline: 0, oracle: 0, volume: 0 };
const methods = new Map<string, number>();
let shownCount = 0;
const started = performance.now();

for (let s = 0; s < SERIES; s += 1) {
  const intermittent = s % 5 === 0;
  const base = intermittent ? 0.2 + random() * 0.6 : 3 + random() * 40;
  const weekly = Array.from({ length: 7 }, () => 0.6 + random() * 0.8);
  const yearlyAmplitude = 0.1 + random() * 0.3;
  const yearlyPhase = random() * 2 * Math.PI;
  const trendPerDay = (random() - 0.5) * 0.001;
  const expected = Array.from({ length: DAYS }, (_, t) =>
    base * weekly[t % 7]! * (1 + yearlyAmplitude * Math.sin((2 * Math.PI * t) / 365 + yearlyPhase)) * (1 + trendPerDay * t),
  );
  const sales = expected.map((mean) => poisson(mean, random));

  const history = sales.slice(0, DAYS - HOLDOUT);
  const actual = sales.slice(DAYS - HOLDOUT);
  // Forecast the held-out weeks from the history only; its own holdout (inside the history) decides `show`.
  const result = forecastDemand(history, { horizon: HOLDOUT });
  const baseline = seasonalNaive(history, HOLDOUT);
  const oracle = expected.slice(DAYS - HOLDOUT);
  add(all, actual, result.forecast, baseline, oracle);
  if (intermittent) add(slow, actual, result.forecast, baseline, oracle);
  if (result.show) {
    shownCount += 1;
    add(shown, actual, result.forecast, baseline, oracle);
  }
  methods.set(result.method, (methods.get(result.method) ?? 0) + 1);
}

const pct = (x: number, volume: number) => `${((100 * x) / volume).toFixed(1)} %`;
const line = (label: string, t: Totals) =>
  console.log(
    `${label.padEnd(28)} method WAPE ${pct(t.method, t.volume).padStart(8)}   baseline WAPE ${pct(t.baseline, t.volume).padStart(8)}   oracle ${pct(t.oracle, t.volume).padStart(8)}`,
  );

console.log(`${SERIES} synthetic series x ${DAYS} days (weekly + yearly seasonality, trend, Poisson noise; 1 in 5 intermittent)`);
console.log(`forecast of the last ${HOLDOUT} days, unseen by the method; ${((performance.now() - started) / 1000).toFixed(1)} s`);
line('all series', all);
line('intermittent series', slow);
line(`shown (${shownCount} of ${SERIES})`, shown);
console.log(`methods chosen: ${[...methods].map(([m, n]) => `${m} ${n}`).join(', ')}`);
if (all.method >= all.baseline) {
  console.error('the forecast does not beat the naive baseline');
  process.exit(1);
}
