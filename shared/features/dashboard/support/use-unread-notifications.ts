import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useSupabase } from '../../../lib/platform-context';
import { useDashboardSession } from '../dashboard-session';

/**
 * How many of the signed-in user's notifications are unread (support answers and resolutions), for the
 * header's bell. Opening the page a notification links to marks it read; the count is read again on every
 * route change, so the dot goes away once the ticket has been seen. A failed count shows no dot.
 */
export function useUnreadNotifications(): number {
  const supabase = useSupabase();
  const { user } = useDashboardSession();
  const { pathname } = useLocation();
  const [unread, setUnread] = useState(0);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      await supabase.from('notifications').update({ read_at: new Date().toISOString() })
        .eq('user_id', user.id).eq('link', pathname).is('read_at', null);
      const { count, error } = await supabase.from('notifications').select('id', { count: 'exact', head: true })
        .eq('user_id', user.id).is('read_at', null);
      if (!cancelled) setUnread(error ? 0 : (count ?? 0));
    })();
    return () => {
      cancelled = true;
    };
  }, [supabase, user.id, pathname]);

  return unread;
}
