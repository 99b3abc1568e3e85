import { useEffect, useMemo, useRef, useState } from 'react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { useLiveChannel, type LiveChange } from '../../lib/use-live-changes';
import { fetchStoreBalances, onHandByVariant, openStockDb, putRows, readCopy, replaceCopy, toBalance, type Balance, type StockDatabase } from './stock-copy';

/**
 * The store's stock on hand at the register, live (issue 28): the device's copy shows at once (offline too);
 * each join of the Realtime channel (the first, and every rejoin after a dropped connection or a server restart)
 * reloads the whole store from the server, since what changed meanwhile was not delivered; in between, each
 * stock_balances change (a sale at another register, a receipt, a transfer, a count) replaces its one row in
 * memory and on the device. Rows that change while a reload is under way are read again once it lands, so an
 * older snapshot never overwrites a newer change.
 */
export function useRegisterStock(supabase: StorewiseClient, storeId: string | undefined): Map<string, number> | null {
  // Keyed by store: another store's rows are never shown while the new store's copy is read.
  const [state, setState] = useState<{ storeId: string; rows: Map<number, Balance> } | null>(null);
  const rows = state && state.storeId === storeId ? state.rows : null;
  const setRows = (update: Map<number, Balance> | ((current: Map<number, Balance> | null) => Map<number, Balance>)) => {
    if (!storeId) return;
    setState((current) => {
      const mine = current && current.storeId === storeId ? current.rows : null;
      return { storeId, rows: typeof update === 'function' ? update(mine) : update };
    });
  };
  const db = useRef<Promise<StockDatabase | null> | null>(null);
  const reloading = useRef<Set<number> | null>(null);
  const generation = useRef(0);

  const database = () => (db.current ??= openStockDb().catch(() => null));

  useEffect(() => {
    if (!storeId) return;
    let stale = false;
    void database().then(async (handle) => {
      if (!handle) return;
      const copy = await readCopy(handle, storeId);
      if (!stale) {
        setState((current) => (current && current.storeId === storeId ? current : { storeId, rows: new Map(copy.map((row) => [row.id, row])) }));
      }
    });
    return () => { stale = true; };
  }, [storeId]);

  const apply = (balances: Balance[], removed: number[]) => {
    if (!storeId) return;
    setRows((current) => {
      const next = new Map(current ?? []);
      for (const balance of balances) next.set(balance.id, balance);
      for (const id of removed) next.delete(id);
      return next;
    });
    void database().then((handle) => handle && putRows(handle, balances, removed.map((id) => ({ storeId, id }))));
  };

  const reload = async () => {
    if (!storeId) return;
    const mine = ++generation.current;
    const touched = new Set<number>();
    reloading.current = touched;
    try {
      const all = await fetchStoreBalances(supabase, storeId);
      if (mine !== generation.current) return;
      setRows(new Map(all.map((row) => [row.id, row])));
      const handle = await database();
      if (handle) await replaceCopy(handle, storeId, all);
      // Changes delivered while the snapshot was read may be older or newer than it: read those rows again.
      if (touched.size > 0) {
        const ids = [...touched];
        const fresh = await fetchStoreBalances(supabase, storeId, ids);
        if (mine !== generation.current) return;
        const found = new Set(fresh.map((row) => row.id));
        apply(fresh, ids.filter((id) => !found.has(id)));
      }
    } catch {
      // Offline or refused: the device's copy stays as it is; the next join reloads.
    } finally {
      if (mine === generation.current) reloading.current = null;
    }
  };

  useLiveChannel(supabase, storeId ? [{ table: 'stock_balances', filter: `store_id=eq.${storeId}` }] : [], {
    onChange: (change: LiveChange) => {
      if (!storeId) return;
      const id = Number((change.eventType === 'DELETE' ? change.old : change.new).id);
      if (!Number.isFinite(id)) return;
      reloading.current?.add(id);
      if (change.eventType === 'DELETE') return apply([], [id]);
      const balance = toBalance(storeId, change.new);
      if (balance) apply([balance], []);
    },
    onJoin: () => void reload(),
  }, Boolean(storeId));

  return useMemo(() => (rows ? onHandByVariant(rows.values()) : null), [rows]);
}
