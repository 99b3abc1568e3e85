/**
 * The forecast accuracy benches' shared tally (bench/forecast.bench.ts on synthetic series, bench/forecast-large.bench.ts
 * on the large seed's sales): forecast the held-out days of each series with forecastDemand from its history only,
 * the naive same-weekday-last-week baseline beside it, and sum absolute errors and volume overall, for the
 * intermittent series and for the series the method would show (`show`), so WAPE is volume-weighted across series.
 */
import { forecastDemand, seasonalNaive, type DemandForecast } from '../../shared/lib/forecast';

interface Totals {
  method: number;
  baseline: number;
  /** Error of the true expected demand: only synthetic data knows it. */
  oracle: number;
  volume: number;
  series: number;
}

export interface SeriesOptions {
  intermittent: boolean;
  oracle?: readonly number[];
}

export interface Measured {
  result: DemandForecast;
  baseline: number[];
}

const empty = (): Totals => ({ method: 0, baseline: 0, oracle: 0, volume: 0, series: 0 });

function add(totals: Totals, actual: readonly number[], method: readonly number[], baseline: readonly number[], oracle?: readonly number[]) {
  totals.series += 1;
  for (let i = 0; i < actual.length; i += 1) {
    totals.method += Math.abs(actual[i]! - method[i]!);
    totals.baseline += Math.abs(actual[i]! - baseline[i]!);
    if (oracle) totals.oracle += Math.abs(actual[i]! - oracle[i]!);
    totals.volume += actual[i]!;
  }
}

const pct = (x: number, volume: number) => (volume > 0 ? `${((100 * x) / volume).toFixed(1)} %` : 'n/a');

export class ForecastTally {
  readonly all = empty();
  readonly intermittent = empty();
  readonly shown = empty();
  readonly methods = new Map<string, number>();

  constructor(private readonly withOracle = false) {}

  /** Forecasts `actual` (the held-out days) from `history` only and adds both errors; returns what it measured. */
  measure(history: readonly number[], actual: readonly number[], options: SeriesOptions): Measured {
    // The forecast's own holdout (inside the history) decides `show`, as on the Insights screen.
    const measured = { result: forecastDemand(history, { horizon: actual.length }), baseline: seasonalNaive(history, actual.length) };
    this.record(measured, actual, options);
    return measured;
  }

  /** Adds a series measured by another tally (a subset such as the best sellers). */
  record({ result, baseline }: Measured, actual: readonly number[], options: SeriesOptions): void {
    add(this.all, actual, result.forecast, baseline, options.oracle);
    if (options.intermittent) add(this.intermittent, actual, result.forecast, baseline, options.oracle);
    if (result.show) add(this.shown, actual, result.forecast, baseline, options.oracle);
    this.methods.set(result.method, (this.methods.get(result.method) ?? 0) + 1);
  }

  /** Issue 14's rule: a shown forecast must beat the baseline (true when nothing is shown). */
  beatsBaselineWhereShown(): boolean {
    return this.shown.series === 0 || this.shown.method < this.shown.baseline;
  }

  line(label: string, t: Totals): void {
    console.log(`${label.padEnd(28)} method WAPE ${pct(t.method, t.volume).padStart(8)}   baseline WAPE ${pct(t.baseline, t.volume).padStart(8)}` +
      (this.withOracle ? `   oracle ${pct(t.oracle, t.volume).padStart(8)}` : `   units ${t.volume.toLocaleString('en-US')}`));
  }

  /** Overall, intermittent (with their count) and shown lines, then the methods chosen. */
  print(): void {
    this.line('all series', this.all);
    this.line(`intermittent (${this.intermittent.series})`, this.intermittent);
    this.line(`shown (${this.shown.series} of ${this.all.series})`, this.shown);
    console.log(`methods chosen: ${[...this.methods].map(([m, n]) => `${m} ${n}`).join(', ')}`);
  }
}
