import type { ReactNode } from 'react';
import { Center, Spinner, VisuallyHidden } from '@chakra-ui/react';
import type { Session } from '@supabase/supabase-js';
import type { StorewiseClient } from '../../lib/supabase-client';
import { SecondFactorScreen } from './second-factor-screen';
import { useSecondFactor } from './use-second-factor';

/**
 * Shows the signed-in screens only once the session has passed the second factor the account requires. Every
 * way in (password, Google, a restored session) lands at aal1 first, so the check sits here, not on /auth.
 * The database enforces aal2 where it matters; this is what makes the user give the code at sign-in.
 */
export function SecondFactorGate({ supabase, session, onSignOut, children }: {
  supabase: StorewiseClient;
  session: Session | null;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const state = useSecondFactor(supabase, session);
  if (state.kind === 'checking') {
    return (
      <Center minH="100dvh" role="status">
        <Spinner size="lg" />
        <VisuallyHidden>Loading...</VisuallyHidden>
      </Center>
    );
  }
  if (state.kind === 'needs-code') {
    return <SecondFactorScreen supabase={supabase} factorId={state.factorId} onSignOut={onSignOut} />;
  }
  return <>{children}</>;
}
