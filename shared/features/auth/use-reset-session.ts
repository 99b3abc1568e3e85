import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useAuth } from '../../lib/auth-provider';
import { useSupabase } from '../../lib/platform-context';
import { startSessionFromCode, startSessionFromTokens } from './auth-api';
import { readResetLink } from './reset-link';

export type ResetSessionStatus = 'checking' | 'ready';

/**
 * Turns the emailed link into a recovery session, once, after supabase-js has read its storage and the
 * URL. Without usable credentials it says so and sends the user to request a new link (spec 8).
 */
export function useResetSession(): ResetSessionStatus {
  const supabase = useSupabase();
  const { loading, lastEvent } = useAuth();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [status, setStatus] = useState<ResetSessionStatus>('checking');
  const handled = useRef(false);

  useEffect(() => {
    if (loading || handled.current) return;
    handled.current = true;

    const rejectLink = (reason: string) => {
      console.warn('Reset link rejected:', reason);
      notify.error('Invalid reset link', 'Please request a new password reset link.');
      navigate('/forgot-password', { replace: true });
    };
    const link = readResetLink(search, lastEvent === 'PASSWORD_RECOVERY');
    if (link.kind === 'invalid') return rejectLink(link.reason);

    const started =
      link.kind === 'recovered'
        ? Promise.resolve({ error: null })
        : link.kind === 'tokens'
          ? startSessionFromTokens(supabase, link)
          : startSessionFromCode(supabase, link.code);
    void started.then(({ error }) => {
      if (error) return rejectLink(error);
      // The credentials are spent: keep them out of the history and the address bar.
      if (link.kind !== 'recovered') navigate({ search: '' }, { replace: true });
      setStatus('ready');
    });
  }, [loading, lastEvent, search, supabase, navigate]);

  return status;
}
