import { useEffect, useMemo, useState } from 'react';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { PosDatabase } from './outbox';
import { cachedRates, currentRates, refreshRates, type ExchangeRate } from './exchange-rates-cache';

/** How often the register looks again at which rate is in effect (a scheduled rate takes over offline too). */
const RECHECK_MS = 60_000;

/**
 * The rates in effect for foreign cash at this register: the device's copy at once, the server's when online (again
 * on every reconnection), and the one in effect re-chosen every minute.
 */
export function useExchangeRates(supabase: StorewiseClient, db: PosDatabase, businessId: string, base: string, online: boolean): ExchangeRate[] {
  const [all, setAll] = useState<ExchangeRate[]>([]);
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    let live = true;
    void cachedRates(db, businessId, base).then((kept) => { if (live) setAll(kept); }).catch(() => undefined);
    if (online) {
      void refreshRates(supabase, db, businessId, base).then((fresh) => { if (live && fresh) setAll(fresh); })
        .catch(() => undefined);
    }
    return () => { live = false; };
  }, [supabase, db, businessId, base, online]);
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), RECHECK_MS);
    return () => clearInterval(timer);
  }, []);
  return useMemo(() => currentRates(all, now), [all, now]);
}
