// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/admin.sql: admin_platform_events()
import type { StorewiseClient } from '../../../lib/supabase-client';
import type { Database } from '../../../lib/database.types';

export type PlatformEvent = Database['public']['Functions']['admin_platform_events']['Returns'][number];
export type EventKind = 'signup' | 'plan' | 'suspension';

/** Where a page starts: after this event (keyset), or at the newest when null. */
export interface PageStart {
  at: string;
  eventId: string;
}

export interface EventsPage {
  rows: PlatformEvent[];
  /** The cursor of the next (older) page, when there is one. */
  next: PageStart | null;
}

/** One page of platform events, newest first; the function returns one extra row when more exist. */
export async function fetchPlatformEvents(supabase: StorewiseClient, kind: EventKind | null, start: PageStart | null,
  pageSize: number): Promise<EventsPage> {
  const { data, error } = await supabase.rpc('admin_platform_events', {
    ...(kind ? { _kind: kind } : {}),
    ...(start ? { _before_at: start.at, _before_id: start.eventId } : {}),
    _limit: pageSize,
  });
  if (error) throw new Error(error.message);
  const all = data ?? [];
  const rows = all.slice(0, pageSize);
  const last = rows[rows.length - 1];
  return { rows, next: all.length > pageSize && last ? { at: last.at, eventId: last.event_id } : null };
}
