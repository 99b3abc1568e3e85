// SQL (supabase/schemas, docs/adr/0250): workspace.sql businesses.packs
import { useEffect, useState } from 'react';
import { useSupabase } from './platform-context';

/**
 * The packs switched on for a business (issue 29): the screens offer a pack's tools only when it is on (the size
 * grid on product, order, transfer and count screens for the clothing pack). Null while loading; an error reads as
 * no packs, so the screens fall back to the plain tools.
 */
export function useBusinessPacks(businessId: string | undefined): string[] | null {
  const supabase = useSupabase();
  const [state, setState] = useState<{ id: string; packs: string[] } | null>(null);
  useEffect(() => {
    if (!businessId) return;
    let live = true;
    void supabase.from('businesses').select('packs').eq('id', businessId).maybeSingle().then(({ data, error }) => {
      if (!live) return;
      if (error) console.error('Packs load failed:', error.message);
      setState({ id: businessId, packs: data?.packs ?? [] });
    });
    return () => {
      live = false;
    };
  }, [supabase, businessId]);
  return state && state.id === businessId ? state.packs : null;
}
