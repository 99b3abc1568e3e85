import { useState } from 'react';
import { notify } from '../../../components/toaster';
import { usePlatform, useSupabase } from '../../../lib/platform-context';
import { openBillingPortal } from './billing-functions';
import { openProviderPage } from './open-provider-page';

/** Opens the provider's portal (Change Payment Method, Add Method); its refusal is shown as said. */
export function usePortal(): { open: () => Promise<void>; opening: boolean } {
  const supabase = useSupabase();
  const platform = usePlatform();
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    try {
      openProviderPage(platform, (await openBillingPortal(supabase)).url);
    } catch (error) {
      notify.error('Payment methods unavailable', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setOpening(false);
    }
  };
  return { open, opening };
}

