import { useEffect, useState } from 'react';
import { useSupabase } from '../platform-context';
import { siteStateSchema, type SiteState } from './site-state';

/**
 * The platform's public state (public_site_state: banner, read-only mode, support promises, FAQ), read when a
 * screen opens. Settings apply without a restart: each new screen asks again. Null until answered or on error
 * (the screens then show what they show without it).
 */
export function useSiteState(): SiteState | null {
  const supabase = useSupabase();
  const [state, setState] = useState<SiteState | null>(null);
  useEffect(() => {
    let cancelled = false;
    void supabase.rpc('public_site_state').then(({ data, error }) => {
      if (cancelled) return;
      if (error) return console.warn('Site state:', error.message);
      const parsed = siteStateSchema.safeParse(data);
      if (parsed.success) setState(parsed.data);
      else console.warn('Site state: unexpected answer');
    });
    return () => {
      cancelled = true;
    };
  }, [supabase]);
  return state;
}
