import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useSupabase } from '../../../lib/platform-context';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { useDashboardSession } from '../dashboard-session';

/** How many of the newest notifications the bell lists (the dot counts every unread one). */
export const BELL_PAGE = 10;

export interface BellItem {
  id: string;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  created_at: string;
  read_at: string | null;
}

/** The caller's trial when it ends within 3 days (public.my_trial_notice, computed on read). */
export interface TrialNotice {
  plan_name: string;
  trial_ends_at: string;
  days_left: number;
}

export interface BellState {
  items: BellItem[];
  unread: number;
  trial: TrialNotice | null;
}

const EMPTY: BellState = { items: [], unread: 0, trial: null };

async function loadBell(supabase: StorewiseClient, userId: string): Promise<BellState> {
  const [list, count, trial] = await Promise.all([
    supabase.from('notifications').select('id, kind, title, body, link, created_at, read_at').eq('user_id', userId)
      .order('created_at', { ascending: false }).limit(BELL_PAGE),
    supabase.from('notifications').select('id', { count: 'exact', head: true }).eq('user_id', userId).is('read_at', null),
    supabase.rpc('my_trial_notice'),
  ]);
  // A part that fails shows as nothing (the bell is a hint, never an error page); the rest still shows.
  if (list.error) console.error('Notifications load failed:', list.error.message);
  if (trial.error) console.error('Trial notice load failed:', trial.error.message);
  return {
    items: list.data ?? [],
    unread: count.error ? 0 : (count.count ?? 0),
    trial: trial.data?.[0] ?? null,
  };
}

/**
 * The header bell's items: the newest notifications, how many are unread, and a trial ending soon. Opening the
 * page a notification links to marks it read (as the support desk's bell did); the list is read again on every
 * route change and after marking, so the dot follows what the owner has seen.
 */
export function useNotifications(): BellState & { markRead: (ids: string[]) => Promise<void> } {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const { pathname } = useLocation();
  const [state, setState] = useState<BellState>(EMPTY);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      await supabase.from('notifications').update({ read_at: new Date().toISOString() })
        .eq('user_id', user.id).eq('link', pathname).is('read_at', null);
      const next = await loadBell(supabase, user.id);
      if (!cancelled) setState(next);
    })();
    return () => {
      cancelled = true;
    };
  }, [supabase, user.id, pathname, version]);

  const markRead = useCallback(async (ids: string[]) => {
    if (ids.length === 0) return;
    const { error } = await supabase.from('notifications').update({ read_at: new Date().toISOString() })
      .eq('user_id', user.id).in('id', ids).is('read_at', null);
    if (error) console.error('Marking notifications read failed:', error.message);
    setVersion((v) => v + 1);
  }, [supabase, user.id]);

  return { ...state, markRead };
}
