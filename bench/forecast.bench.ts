/**
 * Forecast accuracy (issue 14): WAPE of the demand forecast (shared/lib/forecast) against the naive
 * same-weekday-last-week baseline, on the last two weeks held out of a synthetic data set with a known answer:
 * many daily series of a year and a half with weekly and yearly seasonality, a slow trend and Poisson noise,
 * a fifth of them slow movers (intermittent). The "oracle" line is the WAPE of the true expected demand, the
 * floor no method can beat on average (the noise). Deterministic (seeded), no stack needed.
 * Exits non-zero if the method does not beat the baseline overall.
 */
import { ForecastTally } from './lib/forecast-report';

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

const random = rng(20261122);
const tally = new ForecastTally(true);
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
  tally.measure(history, sales.slice(DAYS - HOLDOUT), { intermittent, oracle: expected.slice(DAYS - HOLDOUT) });
}

console.log(`${SERIES} synthetic series x ${DAYS} days (weekly + yearly seasonality, trend, Poisson noise; 1 in 5 intermittent)`);
console.log(`forecast of the last ${HOLDOUT} days, unseen by the method; ${((performance.now() - started) / 1000).toFixed(1)} s`);
tally.print();
if (tally.all.method >= tally.all.baseline) {
  console.error('the forecast does not beat the naive baseline');
  process.exit(1);
}
