import { useCallback, useEffect, useState } from 'react';
import { useSupabase } from './platform-context';
import { fetchLogoUrl } from './business-logo';

/** Said on the window after the logo changed, so every place showing it (the header, the settings card) reloads it. */
const LOGO_CHANGED = 'storewise:business-logo-changed';

export function announceLogoChange(): void {
  window.dispatchEvent(new Event(LOGO_CHANGED));
}

/** The business's logo URL (null: none, undefined: loading); reloaded when announceLogoChange() is called. */
export function useBusinessLogo(businessId: string | undefined) {
  const supabase = useSupabase();
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    window.addEventListener(LOGO_CHANGED, reload);
    return () => window.removeEventListener(LOGO_CHANGED, reload);
  }, [reload]);
  useEffect(() => {
    if (!businessId) return;
    let live = true;
    fetchLogoUrl(supabase, businessId)
      .then((found) => live && setUrl(found))
      .catch(() => live && setUrl(null));
    return () => {
      live = false;
    };
  }, [supabase, businessId, version]);
  return { url, reload };
}
