import { useEffect, useState } from 'react';
import { useAuth } from './auth-provider';
import { useSupabase } from './platform-context';

export type AdminCheck = 'loading' | 'admin' | 'not-admin' | 'error';

/**
 * Asks the database whether the signed-in user is an admin (the is_admin RPC). The answer only decides what
 * the UI shows: the database refuses admin data to non-admins whatever the browser does.
 */
export function useIsAdmin(): AdminCheck {
  const supabase = useSupabase();
  const { user, loading } = useAuth();
  const [result, setResult] = useState<{ userId: string; check: AdminCheck } | null>(null);
  const userId = user?.id ?? null;

  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    void supabase.rpc('is_admin', { _user_id: userId }).then(({ data, error }) => {
      if (cancelled) return;
      if (error) console.error('Admin check failed:', error.message);
      setResult({ userId, check: error ? 'error' : data === true ? 'admin' : 'not-admin' });
    });
    return () => {
      cancelled = true;
    };
  }, [supabase, userId]);

  if (loading) return 'loading';
  if (!userId) return 'not-admin';
  return result?.userId === userId ? result.check : 'loading';
}
