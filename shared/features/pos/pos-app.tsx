import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, Field, Heading, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { LoadingText } from '../../components/loading-text';
import { usePlatform, useSupabase } from '../../lib/platform-context';
import { parseMinor } from './cart';
import { PosImagesProvider } from './pos-images';
import { blockSource } from './catalog-blocks';
import { loadPackedCatalog } from './catalog-packed-store';
import type { LoadProgress } from './catalog-packed-store';
import { indexCatalog, type CatalogIndex } from './catalog-search';
import { CatalogProgress } from './catalog-progress';
import { getMeta, queuedEntry, setMeta, waitingSaleIds } from './outbox';
import { fetchCurrentShift, fetchRoles, fetchStoresAndRegisters, zReport, type PosRegister, type PosShift,
  type PosStore, type ShiftFigures } from './pos-api';
import { ShiftReport } from './shift-panel';
import { dropOtherCustomerCopies, refreshCustomerCopy } from './customers-cache';
import { RefusedEntries } from './refused-entries';
import { keepQueuedShift, openShiftAnywhere } from './shift-open';
import { Till } from './till';
import { useShopPacks } from './shop-packs';
import { useOutbox } from './use-outbox';
import { useOutboxReport } from './use-outbox-report';
import { useRegisterStock } from './use-register-stock';
import { PrinterSettingsButton } from './printing/printer-settings';
import { ThisComputerButton } from './this-computer';
import { NoRegisterYet } from './no-register-yet';

interface Setup { stores: PosStore[]; registers: PosRegister[] }

/** The register (/dashboard/pos): store and register, shift, scan or search, cart, tender, receipt; offline first. */
export function PosApp() {
  const supabase = useSupabase();
  const outbox = useOutbox(supabase);
  const { db } = outbox;
  const [setup, setSetup] = useState<Setup | null>(null);
  const [registerId, setRegisterId] = useState('');
  // The shift of the chosen register (undefined while it loads: the state is keyed by the register).
  const [shiftOf, setShiftOf] = useState<{ registerId: string; shift: PosShift | null } | null>(null);
  const [catalog, setCatalog] = useState<CatalogIndex>(() => indexCatalog([]));
  // A cold load's progress (issue 32), shown until a few seconds after it ends.
  const [catalogProgress, setCatalogProgress] = useState<LoadProgress | null>(null);
  const [roles, setRoles] = useState<Record<string, string>>({});
  const [closed, setClosed] = useState<ShiftFigures | null>(null);
  // A close still in the outbox (ADR 0155): its figures come from the server once it has synced.
  const [closePending, setClosePending] = useState<{ shiftId: string; closeId: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Offline first: the copy kept on this device shows at once, then the server's answer replaces it (a request
  // to an unreachable server may take long to fail).
  useEffect(() => {
    if (!db) return;
    void getMeta<Setup>(db, 'setup').then((cached) => cached && setSetup((current) => current ?? cached));
    fetchStoresAndRegisters(supabase).then(
      (s) => {
        setSetup(s);
        void setMeta(db, 'setup', s);
        // A single register is chosen for the cashier (issue 25); with several, the last one used on this device is.
        const only = s.registers.length === 1 ? s.registers[0]?.id : undefined;
        if (only) setRegisterId((id) => id || only);
      },
      async () => setSetup((await getMeta<Setup>(db, 'setup')) ?? { stores: [], registers: [] }),
    );
    void getMeta<string>(db, 'register').then((id) => id && setRegisterId(id));
    // The role sets the discount limit shown at the till (the database enforces it either way).
    void getMeta<Record<string, string>>(db, 'roles').then((cached) => cached && setRoles((current) => ({ ...cached, ...current })));
    fetchRoles(supabase).then((r) => {
      setRoles(r);
      void setMeta(db, 'roles', r);
      // The device keeps customers only of businesses the signed-in person belongs to (ADR 0165).
      void dropOtherCustomerCopies(db, Object.keys(r));
    }, () => undefined);
  }, [db, supabase]);

  const register = setup?.registers.find((r) => r.id === registerId);
  const store = setup?.stores.find((s) => s.id === register?.store_id);
  const shift = shiftOf?.registerId === registerId ? shiftOf.shift : undefined;
  const setShift = useCallback((s: PosShift | null) => setShiftOf({ registerId, shift: s }), [registerId]);

  // First of the register's effects, so the catalog's calls go out ahead of the stock's and the outbox report's.
  // Keyed by the register's id and store, not its object: the server's answer replaces the device's copy of the
  // setup with equal registers, and a new object would start the catalog and shift loads over (they did, twice).
  const chosenRegister = register?.id;
  const chosenStore = register?.store_id;
  useEffect(() => {
    if (!db || !chosenRegister || !chosenStore) return;
    const register = { id: chosenRegister, store_id: chosenStore };
    void setMeta(db, 'register', register.id);
    void getMeta<PosShift | null>(db, `shift:${register.id}`).then((cached) => cached && setShift(cached));
    // The catalog: the device's copy at once, then brought up to date (catalog-packed-store.ts).
    const copyKey = `catalogCopy:${register.store_id}`;
    // A close still queued on this device (ADR 0155) wins over the server's "open" until it has synced.
    const pendingKey = `closePending:${register.id}`;
    void getMeta<{ shiftId: string; closeId: string }>(db, pendingKey).then((p) => p && setClosePending(p));
    fetchCurrentShift(supabase, register.id).then(
      async (fetched) => {
        const p = await getMeta<{ shiftId: string; closeId: string }>(db, pendingKey);
        // A shift opened here whose open still waits in the outbox stays open (ADR 0165).
        const s = p && fetched?.id === p.shiftId && (await queuedEntry(db, p.closeId)) ? null : await keepQueuedShift(db, register.id, fetched);
        setShift(s);
        void setMeta(db, `shift:${register.id}`, s);
      },
      async () => setShift((await getMeta<PosShift | null>(db, `shift:${register.id}`)) ?? null),
    );
    let stale = false;
    // The copy of the first version (one 25 MB record) is dropped: catalog-store.ts keeps it in chunks (ADR 0161).
    void setMeta(db, copyKey, null);
    // The packed catalog (ADR 0445): the blocks that moved since the device's copy, or all of them on a cold load.
    void loadPackedCatalog({ storeId: register.store_id, source: blockSource(supabase, register.store_id), onCatalog: setCatalog,
      isStale: () => stale, onProgress: setCatalogProgress });
    return () => {
      stale = true;
      setCatalogProgress(null);
    };
  }, [db, supabase, chosenRegister, chosenStore, setShift]);

  // Live stock on hand of the register's store (issue 28), kept on the device too.
  const onHand = useRegisterStock(supabase, register?.store_id);
  // Managers see which registers hold unsent sales (the Overview's "Waiting to sync").
  useOutboxReport(supabase, db ?? null, register?.id, outbox.waiting, outbox.online);

  // On a store PC, main holds a downloaded update while a shift is open or sales wait to be sent (docs/adr/0272).
  const machine = usePlatform().machine;
  useEffect(() => {
    if (shift === undefined) return; // still loading: no report rather than a wrong "no shift"
    machine?.reportRegister({ shiftOpen: shift !== null, unsentSales: outbox.waiting });
  }, [machine, shift, outbox.waiting]);

  // The bar stays at its end for a moment after the load, then goes.
  useEffect(() => {
    if (!catalogProgress?.done) return;
    const timer = setTimeout(() => setCatalogProgress(null), 3000);
    return () => clearTimeout(timer);
  }, [catalogProgress]);

  // The business's customers, copied for finding them offline (customers-cache.ts); offline the copy stays as is.
  const businessId = store?.business_id;
  const packs = useShopPacks(supabase, db ?? null, businessId, store?.id);
  useEffect(() => {
    if (db && businessId) void refreshCustomerCopy(supabase, db, businessId).catch(() => undefined);
  }, [db, supabase, businessId]);

  // Once the outbox has drained, the queued close has reached the server: its Z report can be shown and printed.
  useEffect(() => {
    if (!db || !closePending || outbox.waiting > 0) return;
    let stale = false;
    void (async () => {
      if (await queuedEntry(db, closePending.closeId)) return;
      const z = await zReport(supabase, closePending.shiftId).catch(() => null);
      if (stale || !z) return;
      setClosed(z);
      setClosePending(null);
      if (registerId) await setMeta(db, `closePending:${registerId}`, null);
    })();
    return () => { stale = true; };
  }, [db, supabase, closePending, outbox.waiting, registerId]);

  if (!setup) return <LoadingText />;
  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap">
        <Heading as="h1" size="xl">Register</Heading>
        <HStack>
          <Badge colorPalette={outbox.online ? 'green' : 'red'} data-testid="pos-status">{outbox.online ? 'Online' : 'Offline'}</Badge>
          <Badge data-testid="pos-waiting">{outbox.waiting} waiting</Badge>
          {outbox.refused > 0 && <Badge colorPalette="red" data-testid="pos-refused">{outbox.refused} refused</Badge>}
          <PrinterSettingsButton />
          <ThisComputerButton />
        </HStack>
      </HStack>
      {error && <Text color="fg.error" role="alert">{error}</Text>}
      {outbox.paused && (
        <Text color="fg.warning" role="status" data-testid="pos-paused">
          Sales are not sent for now. {outbox.paused} This register keeps selling: its sales stay here and are sent
          when it ends.
        </Text>
      )}
      {outbox.held && (
        <Text color="fg.warning" role="status" data-testid="pos-held">
          {outbox.held.count} waiting for {outbox.held.authors.join(', ')} to sign in on this register: what a person made
          offline is sent only under their own sign-in.
        </Text>
      )}
      {db && store && (
        <RefusedEntries supabase={supabase} db={db} storeId={store.id} currency={store.currency}
          role={roles[store.business_id] ?? 'cashier'} refusedCount={outbox.refused} onChanged={outbox.refresh} />
      )}
      {setup.registers.length === 0 && <NoRegisterYet canManage={Object.values(roles).some((r) => r === 'owner' || r === 'manager')} />}
      <NativeSelect.Root maxW="sm" hidden={setup.registers.length === 0}>
        <NativeSelect.Field aria-label="Register" value={registerId} onChange={(e) => setRegisterId(e.target.value)}>
          <option value="">Choose a register</option>
          {setup.stores.map((s) => (
            <optgroup key={s.id} label={s.name}>
              {setup.registers.filter((r) => r.store_id === s.id).map((r) => <option key={r.id} value={r.id}>{s.name}: {r.name}</option>)}
            </optgroup>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {register && catalogProgress && <CatalogProgress progress={catalogProgress} />}
      {register && store && shift === undefined && <LoadingText />}
      {closePending && (
        <Text color="fg.warning" role="status" data-testid="close-pending">
          Shift closed on this register. The expected cash and the difference are computed when the register is back
          online; the Z report can be printed after the close has synced.
        </Text>
      )}
      {closed && store && <ShiftReport figures={closed} currency={store.currency} kind="Z" storeName={store.name} registerName={register?.name ?? null} />}
      {register && store && shift === null && (
        <OpenShiftForm currency={store.currency} onOpen={async (float) => {
          try {
            // A close still queued goes first: the register has one open shift at a time.
            await outbox.sync();
            if (!db) return;
            // Offline the open is queued ahead of the shift's sales and the till opens at once (ADR 0165).
            const { shift: opened } = await openShiftAnywhere({ supabase, db, register, openingFloat: float, online: outbox.online,
              enqueue: outbox.add });
            setError(null);
            setShift(opened);
            setClosed(null);
            if (db) await setMeta(db, `shift:${register.id}`, opened);
          } catch (e) { setError(e instanceof Error ? e.message : String(e)); }
        }} />
      )}
      {register && store && shift && db && (
        <PosImagesProvider supabase={supabase} businessId={store.business_id} online={outbox.online}>
          <Till supabase={supabase} db={db} store={store} register={register} shift={shift} catalog={catalog} packs={packs} onHand={onHand}
            role={roles[store.business_id] ?? 'cashier'} online={outbox.online} waiting={outbox.waiting}
            isWaiting={async (id) => (await waitingSaleIds(db)).has(id)}
            enqueue={outbox.add}
            nextSeq={async () => {
              const key = `seq:${register.id}`;
              const next = Math.max((await getMeta<number>(db, key)) ?? 0, shift.next_receipt_seq - 1) + 1;
              await setMeta(db, key, next);
              return next;
            }}
            onClose={async (counted) => {
              // Queued behind the shift's sales, refunds and cash (ADR 0155), with the register's id and time for it.
              const closeId = crypto.randomUUID();
              await outbox.add('close', { id: closeId, shift_id: shift.id, counted, closed_at: new Date().toISOString() });
              const pending = { shiftId: shift.id, closeId };
              await setMeta(db, `closePending:${register.id}`, pending);
              setShift(null);
              setClosed(null);
              await setMeta(db, `shift:${register.id}`, null);
              await outbox.sync();
              const z = (await queuedEntry(db, closeId)) ? null : await zReport(supabase, shift.id).catch(() => null);
              if (z) {
                setClosed(z);
                await setMeta(db, `closePending:${register.id}`, null);
              } else {
                setClosePending(pending);
              }
              return z;
            }} />
        </PosImagesProvider>
      )}
    </Stack>
  );
}

function OpenShiftForm({ currency, onOpen }: { currency: string; onOpen: (float: number) => Promise<void> }) {
  const [text, setText] = useState('0');
  const amount = parseMinor(text, currency);
  return (
    <HStack as="form" align="flex-end" wrap="wrap" onSubmit={(e) => { e.preventDefault(); if (amount !== null) void onOpen(amount); }}>
      <Field.Root maxW="48" invalid={amount === null}>
        <Field.Label>Starting float ({currency})</Field.Label>
        <Input inputMode="decimal" value={text} onChange={(e) => setText(e.target.value)} />
        <Field.HelperText>The cash in the drawer before the first sale.</Field.HelperText>
      </Field.Root>
      <Button type="submit" disabled={amount === null}>Open shift</Button>
    </HStack>
  );
}
