import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Box, Button, Heading, HStack, IconButton, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { LoadingText } from '../../components/loading-text';
import { useSupabase } from '../../lib/platform-context';
import { addItem, cartTotals, formatMinor, lineFigures, parseMinor, setQty, type CartLine, type CatalogItem } from './cart';
import { getMeta, setMeta } from './outbox';
import { closeShift, fetchCatalog, fetchCurrentShift, fetchStoresAndRegisters, openShift, type PosRegister, type PosShift,
  type PosStore } from './pos-api';
import { Receipt, type ReceiptData } from './receipt';
import { createScanDetector } from './scanner';
import { useOutbox } from './use-outbox';

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
  const [catalog, setCatalog] = useState<CatalogItem[]>([]);
  const [error, setError] = useState<string | null>(null);

  // Offline first: the copy kept on this device shows at once, then the server's answer replaces it (a request
  // to an unreachable server may take long to fail).
  useEffect(() => {
    if (!db) return;
    void getMeta<Setup>(db, 'setup').then((cached) => cached && setSetup((current) => current ?? cached));
    fetchStoresAndRegisters(supabase).then(
      (s) => { setSetup(s); void setMeta(db, 'setup', s); },
      async () => setSetup((await getMeta<Setup>(db, 'setup')) ?? { stores: [], registers: [] }),
    );
    void getMeta<string>(db, 'register').then((id) => id && setRegisterId(id));
  }, [db, supabase]);

  const register = setup?.registers.find((r) => r.id === registerId);
  const store = setup?.stores.find((s) => s.id === register?.store_id);
  const shift = shiftOf?.registerId === registerId ? shiftOf.shift : undefined;
  const setShift = useCallback((s: PosShift | null) => setShiftOf({ registerId, shift: s }), [registerId]);

  useEffect(() => {
    if (!db || !register) return;
    void setMeta(db, 'register', register.id);
    void getMeta<PosShift | null>(db, `shift:${register.id}`).then((cached) => cached && setShift(cached));
    void getMeta<CatalogItem[]>(db, `catalog:${register.store_id}`).then((cached) => cached && setCatalog(cached));
    fetchCurrentShift(supabase, register.id).then(
      (s) => { setShift(s); void setMeta(db, `shift:${register.id}`, s); },
      async () => setShift((await getMeta<PosShift | null>(db, `shift:${register.id}`)) ?? null),
    );
    fetchCatalog(supabase, register.store_id).then(
      (items) => { setCatalog(items); void setMeta(db, `catalog:${register.store_id}`, items); },
      async () => setCatalog((await getMeta<CatalogItem[]>(db, `catalog:${register.store_id}`)) ?? []),
    );
  }, [db, supabase, register, setShift]);

  if (!setup) return <LoadingText />;
  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap">
        <Heading as="h1" size="xl">Register</Heading>
        <HStack>
          <Badge colorPalette={outbox.online ? 'green' : 'red'} data-testid="pos-status">{outbox.online ? 'Online' : 'Offline'}</Badge>
          <Badge data-testid="pos-waiting">{outbox.waiting} waiting</Badge>
        </HStack>
      </HStack>
      {error && <Text color="fg.error" role="alert">{error}</Text>}
      <NativeSelect.Root maxW="sm">
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
      {register && store && shift === undefined && <LoadingText />}
      {register && store && shift === null && (
        <OpenShiftForm currency={store.currency} onOpen={async (float) => {
          try {
            const opened = await openShift(supabase, register.id, float);
            setShift(opened);
            if (db) await setMeta(db, `shift:${register.id}`, opened);
          } catch (e) { setError(e instanceof Error ? e.message : String(e)); }
        }} />
      )}
      {register && store && shift && db && (
        <Till store={store} register={register} shift={shift} catalog={catalog}
          onSale={async (payload) => outbox.add(payload)}
          nextSeq={async () => {
            const key = `seq:${register.id}`;
            const next = Math.max((await getMeta<number>(db, key)) ?? 0, shift.next_receipt_seq - 1) + 1;
            await setMeta(db, key, next);
            return next;
          }}
          onClose={async (counted) => {
            try {
              await closeShift(supabase, shift.id, { 1: counted });
              setShift(null);
              await setMeta(db, `shift:${register.id}`, null);
            } catch (e) { setError(e instanceof Error ? e.message : String(e)); }
          }} />
      )}
    </Stack>
  );
}

function OpenShiftForm({ currency, onOpen }: { currency: string; onOpen: (float: number) => Promise<void> }) {
  const [text, setText] = useState('0');
  const amount = parseMinor(text, currency);
  return (
    <HStack as="form" onSubmit={(e) => { e.preventDefault(); if (amount !== null) void onOpen(amount); }}>
      <Input aria-label="Starting float" maxW="40" value={text} onChange={(e) => setText(e.target.value)} />
      <Button type="submit" disabled={amount === null}>Open shift</Button>
    </HStack>
  );
}

function Till({ store, register, shift, catalog, onSale, nextSeq, onClose }: {
  store: PosStore; register: PosRegister; shift: PosShift; catalog: CatalogItem[];
  onSale: (payload: Record<string, unknown> & { id: string }) => Promise<void>;
  nextSeq: () => Promise<number>;
  onClose: (counted: number) => Promise<void>;
}) {
  const [lines, setLines] = useState<CartLine[]>([]);
  const [query, setQuery] = useState('');
  const [cash, setCash] = useState('');
  const [receipt, setReceipt] = useState<ReceiptData | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [counted, setCounted] = useState('');
  const money = useCallback((n: number) => formatMinor(n, store.currency), [store.currency]);

  const byCode = useMemo(() => {
    const map = new Map<string, CatalogItem>();
    for (const item of catalog) {
      map.set(item.sku, item);
      for (const code of item.barcodes) map.set(code, item);
    }
    return map;
  }, [catalog]);

  const addCode = useCallback((code: string) => {
    const item = byCode.get(code.trim()) ?? byCode.get(code.trim().toUpperCase());
    if (!item) {
      setNotice(`No item with the code ${code}`);
      return false;
    }
    setNotice(null);
    setReceipt(null);
    setLines((current) => addItem(current, item));
    return true;
  }, [byCode]);

  // Scans land even when no field has focus: a window listener with keystroke timing.
  const addRef = useRef(addCode);
  useEffect(() => { addRef.current = addCode; }, [addCode]);
  useEffect(() => {
    const detector = createScanDetector((code) => {
      addRef.current(code);
      setQuery('');
    });
    const onKey = (event: KeyboardEvent) => {
      if (detector.key(event.key, event.timeStamp)) event.preventDefault();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const hits = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (q.length < 2) return [];
    return catalog.filter((item) => item.name.toLowerCase().includes(q) || item.sku.toLowerCase().startsWith(q)
      || item.barcodes.includes(q)).slice(0, 8);
  }, [catalog, query]);

  const totals = cartTotals(lines, store.tax_inclusive);
  const tendered = parseMinor(cash, store.currency);

  const pay = async (kind: 'cash' | 'card') => {
    if (lines.length === 0) return;
    const given = kind === 'cash' ? (tendered ?? totals.total) : totals.total;
    if (given < totals.total) {
      setNotice('The cash given is less than the total');
      return;
    }
    const seq = await nextSeq();
    const id = crypto.randomUUID();
    const occurredAt = new Date().toISOString();
    const tender = { kind, amount: totals.total, tendered: given, change: given - totals.total };
    await onSale({
      id, register_id: register.id, shift_id: shift.id, occurred_at: occurredAt, receipt_seq: seq,
      offline: !navigator.onLine,
      lines: lines.map((l) => ({ variant_id: l.item.variantId, qty: l.qty, unit_price: l.item.price, discount: l.discount })),
      tenders: [{ kind, amount: tender.amount, tendered: tender.tendered }],
    });
    setReceipt({
      receiptNumber: `${shift.receipt_prefix}-${String(seq).padStart(6, '0')}`, occurredAt,
      header: store.receipt_header, footer: store.receipt_footer, currency: store.currency,
      lines: lines.map((l) => ({ name: l.item.name, qty: l.qty, unitPrice: l.item.price, total: lineFigures(l, store.tax_inclusive).total })),
      subtotal: totals.subtotal, discount: totals.discount, tax: totals.tax, total: totals.total, taxByRate: totals.taxByRate,
      tenders: [tender], pending: !navigator.onLine,
    });
    setLines([]);
    setCash('');
  };

  return (
    <Stack gap="4">
      <Text color="fg.muted">{store.name} · {register.name} · shift opened {new Date(shift.opened_at).toLocaleTimeString()}</Text>
      <Box position="relative" maxW="lg">
        <Input aria-label="Scan or search" placeholder="Scan, or search by name, SKU or barcode" value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && query.trim()) {
              if (addCode(query)) setQuery('');
              else if (hits[0]) { setLines((c) => addItem(c, hits[0] as CatalogItem)); setQuery(''); }
            }
          }} />
        {hits.length > 0 && (
          <Stack gap="0" borderWidth="1px" rounded="md" mt="1" role="listbox" aria-label="Search results">
            {hits.map((item) => (
              <Button key={item.variantId} variant="ghost" justifyContent="space-between" role="option"
                onClick={() => { setLines((c) => addItem(c, item)); setQuery(''); }}>
                <Text truncate>{item.name}</Text><Text>{money(item.price)}</Text>
              </Button>
            ))}
          </Stack>
        )}
      </Box>
      {notice && <Text color="fg.warning" role="status">{notice}</Text>}
      {receipt ? <Receipt data={receipt} onClose={() => setReceipt(null)} /> : (
        <Stack gap="3">
          <Table.Root size="sm" aria-label="Cart">
            <Table.Header><Table.Row><Table.ColumnHeader>Item</Table.ColumnHeader><Table.ColumnHeader>Qty</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader></Table.Row></Table.Header>
            <Table.Body>
              {lines.length === 0 && <Table.Row><Table.Cell colSpan={3}>Scan an item to start a sale.</Table.Cell></Table.Row>}
              {lines.map((line) => (
                <Table.Row key={line.item.variantId}>
                  <Table.Cell>{line.item.name}</Table.Cell>
                  <Table.Cell>
                    <HStack gap="1">
                      <IconButton size="xs" variant="outline" aria-label={`One less ${line.item.name}`}
                        onClick={() => setLines((c) => setQty(c, line.item.variantId, line.qty - 1))}>-</IconButton>
                      <Text minW="8" textAlign="center" data-testid="cart-qty">{line.qty}</Text>
                      <IconButton size="xs" variant="outline" aria-label={`One more ${line.item.name}`}
                        onClick={() => setLines((c) => setQty(c, line.item.variantId, line.qty + 1))}>+</IconButton>
                    </HStack>
                  </Table.Cell>
                  <Table.Cell textAlign="end">{money(lineFigures(line, store.tax_inclusive).total)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          <HStack justify="space-between" maxW="lg"><Text>Tax</Text><Text>{money(totals.tax)}</Text></HStack>
          <HStack justify="space-between" maxW="lg" fontWeight="bold" fontSize="lg">
            <Text>Total</Text><Text data-testid="cart-total">{money(totals.total)}</Text>
          </HStack>
          <HStack wrap="wrap">
            <Input aria-label="Cash given" placeholder="Cash given" maxW="40" value={cash} onChange={(e) => setCash(e.target.value)} />
            {tendered !== null && tendered >= totals.total && lines.length > 0 && <Text>Change {money(tendered - totals.total)}</Text>}
            <Button onClick={() => void pay('cash')} disabled={lines.length === 0}>Pay cash</Button>
            <Button variant="outline" onClick={() => void pay('card')} disabled={lines.length === 0}>Pay by card</Button>
          </HStack>
        </Stack>
      )}
      <HStack as="form" borderTopWidth="1px" pt="3" onSubmit={(e) => {
        e.preventDefault();
        const amount = parseMinor(counted, store.currency);
        if (amount !== null) void onClose(amount);
      }}>
        <Input aria-label="Cash counted" placeholder="Cash counted" maxW="40" value={counted} onChange={(e) => setCounted(e.target.value)} />
        <Button type="submit" variant="outline" disabled={parseMinor(counted, store.currency) === null}>Close shift</Button>
      </HStack>
    </Stack>
  );
}
