// SQL (supabase/schemas, docs/adr/0250): workspace.sql businesses.packs
import { useEffect, useState } from 'react';
import { loadBusinessPacks, onBusinessPacksChanged, peekBusinessPacks } from './business-packs-cache';
import { useSupabase } from './platform-context';

/**
 * The packs switched on for a business (issue 29): the screens offer a pack's tools only when it is on (the size
 * grid on product, order, transfer and count screens for the clothing pack; the collections report). Null while
 * loading; an error reads as no packs, so the screens fall back to the plain tools. Read once per business and
 * shared by every screen (business-packs-cache.ts); a pack switched on the packs card reaches them at once.
 */
export function useBusinessPacks(businessId: string | undefined): string[] | null {
  const supabase = useSupabase();
  const [state, setState] = useState<{ id: string; packs: string[] } | null>(() => {
    const packs = businessId ? peekBusinessPacks(supabase, businessId) : undefined;
    return businessId && packs ? { id: businessId, packs } : null;
  });
  const [version, setVersion] = useState(0);
  useEffect(() => onBusinessPacksChanged((id) => id === businessId && setVersion((v) => v + 1)), [businessId]);
  useEffect(() => {
    if (!businessId) return;
    let live = true;
    void loadBusinessPacks(supabase, businessId).then((packs) => {
      if (live) setState({ id: businessId, packs });
    });
    return () => {
      live = false;
    };
  }, [supabase, businessId, version]);
  if (state && state.id === businessId) return state.packs;
  // Another business chosen: its packs at once when another screen read them already.
  return (businessId && peekBusinessPacks(supabase, businessId)) || null;
}
