import { useEffect, useState } from 'react';
import { useAuth } from '../../lib/auth-provider';
import { useSupabase } from '../../lib/platform-context';
import { fetchMyWorkspaces, type CatalogWorkspace } from './catalog-api';

/**
 * The business chosen on this device (the Business area's switcher stores it under this key per user), or
 * the first one. Read here rather than imported: features do not import each other.
 */
export function useCurrentBusiness(): { status: 'loading' | 'error' | 'ready'; business: CatalogWorkspace | null } {
  const supabase = useSupabase();
  const { user } = useAuth();
  const [state, setState] = useState<{ status: 'loading' | 'error' | 'ready'; business: CatalogWorkspace | null }>(
    { status: 'loading', business: null });
  useEffect(() => {
    let cancelled = false;
    fetchMyWorkspaces(supabase).then((list) => {
      let remembered: string | null = null;
      try {
        remembered = window.localStorage.getItem(`storewise.workspace.${user?.id ?? ''}`);
      } catch {
        remembered = null;
      }
      const open = list.filter((w) => !w.suspended_at);
      if (!cancelled) setState({ status: 'ready', business: open.find((w) => w.id === remembered) ?? open[0] ?? null });
    }, (error: unknown) => {
      console.error('Businesses load failed:', error);
      if (!cancelled) setState({ status: 'error', business: null });
    });
    return () => {
      cancelled = true;
    };
  }, [supabase, user?.id]);
  return state;
}
