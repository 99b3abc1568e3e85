import { useEffect } from 'react';
import type { StorewiseClient } from '../../../lib/supabase-client';
import type { PosDatabase } from '../outbox';
import { fetchVerifiers } from './till-pins-api';
import { keepVerifiers } from './verifier-store';

/**
 * Keeps the register's offline PIN verifiers fresh: fetched when the till opens online and each time the network
 * comes back, so a PIN set or reset today, or a person who left, is known before the next outage (ADR 0300).
 */
export function useTillVerifiers(supabase: StorewiseClient, db: PosDatabase, registerId: string, online: boolean) {
  useEffect(() => {
    if (!online) return;
    let live = true;
    void fetchVerifiers(supabase, registerId)
      .then((set) => (live ? keepVerifiers(db, set) : undefined))
      // The kept copy serves until the next fetch succeeds.
      .catch(() => undefined);
    return () => { live = false; };
  }, [supabase, db, registerId, online]);
}
