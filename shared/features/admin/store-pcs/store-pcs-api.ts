// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/admin.sql: admin_desktop_versions()
// SQL (supabase/schemas, docs/adr/0185, docs/adr/0270):
//   supabase/schemas/admin.sql: admin_desktop_versions()
import type { Database } from '../../../lib/database.types';
import type { StorewiseClient } from '../../../lib/supabase-client';

export type StorePcRow = Database['public']['Functions']['admin_desktop_versions']['Returns'][number];

export interface VersionShare {
  version: string;
  devices: number;
  /** Share of the devices listed, 0..100, rounded. */
  percent: number;
}

/** The latest report of each store PC seen in the last `days` days (one page, newest first). */
export async function fetchStorePcs(supabase: StorewiseClient, days: number, limit = 200): Promise<StorePcRow[]> {
  const { data, error } = await supabase.rpc('admin_desktop_versions', { _days: days, _limit: limit });
  if (error) throw new Error(error.message);
  return data ?? [];
}

/**
 * How many store PCs run each version (the rollout at a glance), newest version first. The counts come from
 * the function (over every device seen, not only this page), so a partial page still shows the true split.
 */
export function versionShares(rows: readonly StorePcRow[]): VersionShare[] {
  const total = Number(rows[0]?.total_count ?? 0);
  const byVersion = new Map<string, number>();
  for (const row of rows) byVersion.set(row.app_version, Number(row.devices_on_version));
  return [...byVersion.entries()]
    .map(([version, devices]) => ({ version, devices, percent: total > 0 ? Math.round((devices / total) * 100) : 0 }))
    .sort((a, b) => compareVersions(b.version, a.version));
}

/** Semantic versions in order; a pre-release (1.5.0-beta.1) comes before its release (1.5.0). */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.split('-', 2) as [string, string?];
  const [coreB = '', preB] = b.split('-', 2) as [string, string?];
  const partsA = coreA.split('.').map(Number);
  const partsB = coreB.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const diff = (partsA[i] ?? 0) - (partsB[i] ?? 0);
    if (diff !== 0) return diff;
  }
  if (preA === undefined || preB === undefined) return preA === preB ? 0 : preA === undefined ? 1 : -1;
  return preA.localeCompare(preB, 'en', { numeric: true });
}
