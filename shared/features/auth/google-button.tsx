import { useState } from 'react';
import { FcGoogle } from 'react-icons/fc';
import { LightButton } from '../../components/light/button';
import { signInWithGoogle } from './auth-api';
import { useAuthServices } from './auth-services';

/** Continue with Google: the platform decides where the provider page opens. */
export function GoogleButton({ disabled }: { disabled?: boolean }) {
  const { supabase, platform, notify } = useAuthServices();
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    const { error } = await signInWithGoogle(await supabase(), await platform());
    // On the web the page is about to leave; on the desktop the browser opened and the app waits.
    setBusy(false);
    if (error) notify.error('Error', error);
  }

  return (
    <LightButton variant="outline" className="lt-full" onClick={() => void start()} loading={busy} disabled={disabled}>
      <FcGoogle aria-hidden="true" />
      Continue with Google
    </LightButton>
  );
}
