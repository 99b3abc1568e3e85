import { useCallback, useEffect, useState } from 'react';
import { useSupabase } from './platform-context';
import { fetchLogoUrl } from './business-logo';

/** The business's logo URL (null: none, undefined: loading); reload() after a change. */
export function useBusinessLogo(businessId: string | undefined) {
  const supabase = useSupabase();
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const [version, setVersion] = useState(0);
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
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { url, reload };
}
