import { useEffect, useState } from 'react';
import type { Session } from '@supabase/supabase-js';
import { assuranceOf, verifiedFactors } from '../../lib/two-factor-api';
import type { StorewiseClient } from '../../lib/supabase-client';
import { tokenClaims } from '../../lib/token-claims';

export type SecondFactorState =
  | { kind: 'checking' }
  | { kind: 'done' }
  | { kind: 'needs-code'; factorId: string };

/**
 * Whether the session plainly owes nothing, read from what it carries, as supabase-js's
 * getAuthenticatorAssuranceLevel reads it (the token's aal claim; aal2 next when the user has a verified factor):
 * already at aal2, or no verified factor. Then the screens render at once, without an asynchronous check in
 * front of the first paint (docs/adr/0418); any other session is checked as before.
 */
export function owesNothing(session: Session): boolean {
  if (tokenClaims(session.access_token)?.aal === 'aal2') return true;
  return !(session.user.factors ?? []).some((factor) => factor.status === 'verified');
}

/**
 * Whether this session still owes its second factor: signed in with the password only (aal1) while the user
 * has a confirmed authenticator (next level aal2). Re-checked whenever the session's token changes, so the
 * verified session (MFA_CHALLENGE_VERIFIED) lets the screens through.
 */
export function useSecondFactor(supabase: StorewiseClient, session: Session | null): SecondFactorState {
  const [state, setState] = useState<{ token: string | null; value: SecondFactorState }>({ token: null, value: { kind: 'checking' } });
  const token = session?.access_token ?? null;

  useEffect(() => {
    if (!token) return;
    let current = true;
    void (async () => {
      let value: SecondFactorState = { kind: 'done' };
      try {
        const level = await assuranceOf(supabase);
        if (level.current === 'aal1' && level.next === 'aal2') {
          const factor = (await verifiedFactors(supabase))[0];
          if (factor) value = { kind: 'needs-code', factorId: factor.id };
        }
      } catch (error) {
        // The database refuses aal2-only work on its own; a failed check must not lock the user out of the rest.
        console.warn('Two-factor check failed:', error instanceof Error ? error.message : error);
      }
      if (current) setState({ token, value });
    })();
    return () => {
      current = false;
    };
  }, [supabase, token]);

  if (!token || !session) return { kind: 'done' };
  if (owesNothing(session)) return { kind: 'done' };
  // While a new token (a refresh, a verified code) is checked, the last answer stands: the screens stay
  // mounted, so an open dialog (the recovery codes right after enrolment) is not lost.
  return state.token === null ? { kind: 'checking' } : state.value;
}
