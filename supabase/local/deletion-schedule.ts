/**
 * The local stack's stand-in for the two schedules a hosted project runs for business deletions (docs/adr/0220):
 * pg_cron's daily private.purge_expired_retention() (fiscal records past their retention period), and the daily
 * call of the business-deletion Edge Function's `run` with the service role key (deletions past their 30 days).
 * The function is called only when a deletion is due, so an idle stack starts no Deno process for it.
 */
import type { Db } from './db/types';
import { startPeriodicTask, type PeriodicTask } from './periodic-task';

export async function runDeletionSchedule(db: Db, apiUrl: string, serviceRoleKey: string): Promise<{ purged: number; ran: boolean }> {
  const purged = (await db.query<{ n: number }>('select private.purge_expired_retention() as n')).rows[0]?.n ?? 0;
  const due = (await db.query<{ n: number }>('select count(*)::int as n from public.business_deletions_due()')).rows[0]?.n ?? 0;
  if (due === 0) return { purged, ran: false };
  const response = await fetch(`${apiUrl}/functions/v1/business-deletion`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${serviceRoleKey}`, apikey: serviceRoleKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'run' }),
  });
  if (!response.ok) throw new Error(`business-deletion run answered ${response.status}`);
  return { purged, ran: true };
}

export function startDeletionSchedule(db: Db, apiUrl: () => string, serviceRoleKey: string, intervalMs = 60 * 60_000,
  log = console.error): PeriodicTask {
  return startPeriodicTask(() => runDeletionSchedule(db, apiUrl(), serviceRoleKey), intervalMs, (error) =>
    log(`Storewise: business deletion schedule failed: ${error instanceof Error ? error.message.slice(0, 200) : 'error'}`));
}
