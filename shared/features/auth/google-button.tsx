import { Button } from '@chakra-ui/react';
import { useState } from 'react';
import { FcGoogle } from 'react-icons/fc';
import { notify } from '../../components/toaster';
import { usePlatform, useSupabase } from '../../lib/platform-context';
import { signInWithGoogle } from './auth-api';

/** Continue with Google: the platform decides where the provider page opens. */
export function GoogleButton({ disabled }: { disabled?: boolean }) {
  const supabase = useSupabase();
  const platform = usePlatform();
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    const { error } = await signInWithGoogle(supabase, platform);
    // On the web the page is about to leave; on the desktop the browser opened and the app waits.
    setBusy(false);
    if (error) notify.error('Error', error);
  }

  return (
    <Button type="button" variant="outline" width="full" onClick={() => void start()} loading={busy} disabled={disabled}>
      <FcGoogle aria-hidden="true" />
      Continue with Google
    </Button>
  );
}
