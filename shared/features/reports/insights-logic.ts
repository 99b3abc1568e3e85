import { forecastDemand, seasonalNaive, suggestReorder, type DemandForecast, type ReorderSuggestion } from '../../lib/forecast';

/** Days of sales history the insights fit on (12 weeks: two held-out weeks and ten to fit). */
export const HISTORY_DAYS = 84;
/** Days forecast and shown. */
export const HORIZON_DAYS = 28;

const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Sparse daily rows (days without a sale absent) to one dense series per variant over [from, from + days). */
export function dailySeries(rows: readonly { variant_id: string; day: string; units: number }[], from: string, days: number): Map<string, number[]> {
  const index = new Map(Array.from({ length: days }, (_, i) => [addDays(from, i), i]));
  const out = new Map<string, number[]>();
  for (const r of rows) {
    const i = index.get(r.day);
    if (i === undefined) continue;
    const series = out.get(r.variant_id) ?? Array<number>(days).fill(0);
    series[i] = (series[i] ?? 0) + r.units;
    out.set(r.variant_id, series);
  }
  return out;
}

export type PlanningBasis = 'forecast' | 'last-week' | 'average';

export interface VariantPlan {
  forecast: DemandForecast;
  /** What the reorder quantity plans on: the forecast only when it beat last week on the held-out days. */
  basis: PlanningBasis;
  planning: number[];
  suggestion: ReorderSuggestion;
}

/** Standard deviation of the week-on-week daily change: the error scale of repeating last week. */
function lastWeekSigma(history: readonly number[]): number {
  const diffs = history.slice(7).map((v, i) => v - history[i]!);
  if (diffs.length < 2) return 0;
  return Math.sqrt(diffs.reduce((a, d) => a + d * d, 0) / (diffs.length - 1));
}

/**
 * Forecast one variant in one store and size its reorder: forecast demand over the supplier's lead time plus
 * safety stock, minus on hand and on order (ADR 0145). When the forecast does not beat the same-weekday-last-
 * week baseline, the plan uses that baseline (and its error) instead, and says so; with under a week of history,
 * the daily average.
 */
export function planVariant(history: readonly number[], input: { leadTimeDays: number; onHand: number; onOrder: number }): VariantPlan {
  const horizon = Math.max(HORIZON_DAYS, input.leadTimeDays);
  const forecast = forecastDemand(history, { horizon });
  let basis: PlanningBasis;
  let planning: number[];
  let sigma: number;
  if (forecast.show) {
    basis = 'forecast';
    planning = forecast.forecast;
    sigma = forecast.sigma;
  } else if (history.length >= 7) {
    basis = 'last-week';
    planning = seasonalNaive(history, horizon);
    sigma = lastWeekSigma(history);
  } else {
    basis = 'average';
    const mean = history.length ? history.reduce((a, b) => a + b, 0) / history.length : 0;
    planning = Array<number>(horizon).fill(mean);
    sigma = 0;
  }
  const suggestion = suggestReorder({
    forecast: planning, leadTimeDays: input.leadTimeDays, sigma, onHand: Math.max(0, input.onHand), onOrder: input.onOrder,
  });
  return { forecast, basis, planning, suggestion };
}

export const formatWape = (w: number) => (Number.isFinite(w) ? `${(w * 100).toFixed(1)} %` : 'not measured');
