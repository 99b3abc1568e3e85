import type { DrawerCount } from './denominations';
import { tenderPayload } from './foreign-tender';
import { useExchangeRates } from './use-exchange-rates';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { format } from 'date-fns';
import { Badge, Box, Button, Flex, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { PrintableSlip } from '../../platform/platform';
import {
  addItem, addLine, cartTotals, discountLimitPercent, fixedQuantity, formatMinor, lineFigures, lineKey, maxDiscountPercent, priceCart,
  receiptLine, setQty, tenderState, type CartLine, type CatalogItem, type Discount, type Tender,
} from './cart';
import { currencyDigits } from '../../lib/money';
import { labelQuantity, matchScaleLabel, pluBaseCode } from '../../lib/scale-barcode';
import { serialProblem } from './serial-number';
import { readGs1Scan } from './gs1-scan';
import { noPacks, type ShopPacks } from './shop-packs';
import { PrescriptionPrompt } from './prescriptions/prescription-prompt';
import { linesNeedingPrescription } from './prescriptions/prescription';
import { saleLinePayload } from './sale-line-payload';
import { CustomerPanel } from './customer-panel';
import { DiscountPanel } from './discount-panel';
import { ManagerApproval } from './manager-approval';
import { expiredLotLines, expiredLotText, needsLotApproval } from './expired-lots';
import { SwitchCashierPanel, tillSwitchPayload, type TillCashier } from './till-pins/switch-cashier-panel';
import { useTillVerifiers } from './till-pins/use-till-verifiers';
import { draftKey, loadDraft, saveDraft, withoutStaleApproval } from './cart-draft';
import { getMeta, listParked, parkCart, resumeParked, setMeta, type EnqueueOptions, type OutboxKind, type ParkedCart,
  type PosDatabase } from './outbox';
import type { PosRegister, PosShift, PosStore, RefundableSale, ShiftFigures } from './pos-api';
import { refundSlip } from './printing/print-slip';
import { SlipView } from './printing/slip-view';
import { Receipt, type ReceiptData } from './receipt';
import { awaitsLots, fetchReceiptLots, withLots } from './receipt-lots';
import { useBusinessLogo } from '../../lib/use-business-logo';
import { RefundPanel, type RefundRequest } from './refund-panel';
import { refundRole } from './refund-math';
import { CartRow } from './cart-row';
import { PosThumb } from './pos-images';
import { lookupCode, searchCatalog, type CatalogIndex } from './catalog-search';
import { createScanDetector } from './scanner';
import { ShiftPanel } from './shift-panel';
import { SHORTCUTS, shortcutOf, type ShortcutName } from './shortcuts';
import { TenderPanel } from './tender-panel';
import { emptyCart, parkLabel, type CartState } from './till-state';

type Panel = 'discount' | 'customer' | 'parked' | 'refund' | 'shift' | 'approval' | 'lotApproval' | 'switch' | null;
type Payload = Record<string, unknown> & { id: string };
const RECENT_KEEP = 200;
/** A receipt number as the register mints it (prefix-000123): a scan of one opens the refund. */
const RECEIPT_RE = /^[A-Z0-9]{1,12}-\d{6,}$/i;

export interface TillProps {
  supabase: StorewiseClient;
  db: PosDatabase;
  store: PosStore;
  register: PosRegister;
  shift: PosShift;
  /** The catalog's index (catalog-columns.ts for the packed copy): scans and searches read it. */
  catalog: CatalogIndex;
  /** The store's stock on hand per item, live (use-register-stock.ts); null until the device's copy is read. */
  onHand?: Map<string, number> | null;
  role: string;
  online: boolean;
  waiting: number;
  isWaiting: (saleId: string) => Promise<boolean>;
  enqueue: (kind: OutboxKind, payload: Payload, options?: EnqueueOptions) => Promise<void>;
  nextSeq: () => Promise<number>;
  onClose: (counted: DrawerCount) => Promise<ShiftFigures | null>;
  /** The business's packs and their data (shop-packs.ts): scale rules, serial-tracked items, serials in stock. */
  packs?: ShopPacks;
}

/** What a receipt and the cart show under a line: its serial, scale label or lot, and its prescription number. */
function lineDetail(line: CartLine): { detail?: string; unit?: string } {
  const base = itemDetail(line);
  return line.prescription ? { ...base, detail: [base.detail, `Rx ${line.prescription.number}`].filter(Boolean).join(' · ') } : base;
}

function itemDetail(line: CartLine): { detail?: string; unit?: string } {
  const unit = line.item.unit === 'kg' ? { unit: 'kg' } : {};
  if (line.serial) return { ...unit, detail: `S/N ${line.serial}` };
  if (line.scaleLabel) return { ...unit, detail: `Label ${line.scaleLabel}` };
  if (line.lot) return { ...unit, detail: `Lot ${line.lot.number}${line.lot.expiry ? ` exp. ${line.lot.expiry}` : ''}` };
  return unit;
}

function ShortcutButton({ name, label, onClick, ...rest }: { name: ShortcutName; label: string; onClick: () => void; disabled?: boolean }) {
  const s = SHORTCUTS[name];
  return (
    <Button size={{ base: 'sm', md: 'md' }} variant="outline" aria-keyshortcuts={s.aria} onClick={onClick} {...rest}>
      {label} <Badge variant="subtle" size="sm">{s.label}</Badge>
    </Button>
  );
}

/**
 * The sale screen: scan or search, the cart with line and cart discounts (a manager approves above the role's
 * limit), a customer, split tenders, park and resume, returns against a receipt and the shift. Keyboard first:
 * every action has an Alt shortcut shown on its button, Escape closes a panel and returns to the scan field.
 */
export function Till(props: TillProps) {
  const { supabase, db, store, register, shift, catalog, onHand, role, online, waiting, isWaiting, enqueue, nextSeq } = props;
  const packs = props.packs ?? noPacks;
  const step = store.cash_rounding_step ?? 0;
  const rates = useExchangeRates(supabase, db, store.business_id, store.currency, online);
  /** A serial-tracked item waiting for its serial (scanned or typed next). */
  const [awaitingSerial, setAwaitingSerial] = useState<CatalogItem | null>(null);
  const [serialText, setSerialText] = useState('');
  const [cart, setCart] = useState<CartState>(emptyCart);
  const [tenders, setTenders] = useState<Tender[]>([]);
  const [panel, setPanel] = useState<Panel>(null);
  const [discountTarget, setDiscountTarget] = useState('cart');
  const [refundReceipt, setRefundReceipt] = useState('');
  const [query, setQuery] = useState('');
  const [receipt, setReceipt] = useState<ReceiptData | null>(null);
  // The lots the server picked (ADR 0403): asked when the receipt shows and again each time the outbox count
  // changes (the sale has posted), until the answer comes; the receipt on screen and its reprint then list them.
  const lotsFor = receipt?.awaitLots ? receipt.saleId : undefined;
  useEffect(() => {
    if (!lotsFor) return;
    let cancelled = false;
    void fetchReceiptLots(supabase, lotsFor).then((lots) => {
      if (!cancelled && lots) setReceipt((r) => (r && r.saleId === lotsFor ? withLots(r, lots) : r));
    }, () => undefined);
    return () => { cancelled = true; };
  }, [supabase, lotsFor, waiting]);
  // The logo on the browser receipt (a public URL the browser caches for offline printing).
  const logo = useBusinessLogo(store.business_id);
  const [notice, setNotice] = useState<string | null>(null);
  const [refunded, setRefunded] = useState<{ slip: PrintableSlip; cash: boolean } | null>(null);
  const [parked, setParked] = useState<ParkedCart[]>([]);
  const searchRef = useRef<HTMLInputElement | null>(null);
  const tenderRef = useRef<HTMLInputElement | null>(null);
  const money = useCallback((n: number) => formatMinor(n, store.currency), [store.currency]);
  // The shared till (ADR 0300): the person switched in by PIN sells under the signed-in shift; their role sets the
  // discount limit and whether a refund needs a manager, and their name goes on the sale.
  const [tillCashier, setTillCashier] = useState<TillCashier | null>(null);
  useTillVerifiers(supabase, db, register.id, online);
  const sellingRole = tillCashier?.role ?? role;
  const limit = discountLimitPercent(sellingRole);

  const refreshParked = useCallback(() => void listParked(db, register.id).then(setParked), [db, register.id]);
  useEffect(refreshParked, [refreshParked]);

  // The cart in progress survives a reload, a crash or a closed tab (cart-draft.ts, ADR 0200): the kept one comes
  // back unless something was scanned first; from then on every change is kept.
  const [draftRead, setDraftRead] = useState(false);
  useEffect(() => {
    let live = true;
    void loadDraft(db, register.id).catch(() => null).then((kept) => {
      if (!live) return;
      if (kept) setCart((current) => (current.entries.length === 0 ? kept : current));
      setDraftRead(true);
    });
    return () => { live = false; };
  }, [db, register.id]);
  useEffect(() => {
    if (draftRead) void saveDraft(db, register.id, cart).catch(() => undefined);
  }, [draftRead, db, register.id, cart]);

  const lines = useMemo(() => priceCart(cart.entries, cart.cartDiscount), [cart.entries, cart.cartDiscount]);
  const totals = cartTotals(lines, store.tax_inclusive);
  const maxPct = maxDiscountPercent(lines);
  const approvalValid = Boolean(cart.approval && cart.approval.percent + 1e-9 >= maxPct);
  const needsApproval = maxPct > limit + 1e-9 && !approvalValid;
  // Expired lots a DataMatrix named (ADR 0360): a cashier needs a manager; an owner or manager is the override.
  const expiredLots = useMemo(() => expiredLotLines(lines, format(new Date(), 'yyyy-MM-dd')), [lines]);
  const needsExpiredApproval = useMemo(() => needsLotApproval(sellingRole, expiredLots, cart.lotApproval),
    [sellingRole, expiredLots, cart.lotApproval]);
  // Prescription-only lines (ADR 0390) wait for their prescription before the sale is paid, online or not.
  const needsPrescription = useMemo(() => linesNeedingPrescription(lines, packs.prescriptionItems), [lines, packs.prescriptionItems]);
  const finishing = useRef(false);

  // A change to the cart invalidates the tenders taken so far (the total moved).
  const updateCart = useCallback((next: (c: CartState) => CartState) => {
    setCart(next);
    setTenders([]);
    setReceipt(null);
    setRefunded(null);
  }, []);

  // Built once per catalog, before it is handed over (catalog-packed-store.ts).
  const index = catalog;

  const openRefund = useCallback((code: string) => {
    setRefundReceipt(code.toUpperCase());
    setPanel('refund');
  }, []);

  // A line of its own (a unit with its serial, a scale label's weight or price); a repeat is named, not added.
  const addOwnLine = useCallback((line: CartLine) => {
    let refused: string | null = null;
    updateCart((c) => {
      const next = addLine(c.entries, line);
      if (typeof next === 'string') {
        refused = next;
        return c;
      }
      return { ...c, entries: next };
    });
    setNotice(refused);
  }, [updateCart]);

  const addSerial = useCallback((item: CatalogItem, serial: string) => {
    const problem = serialProblem(packs.serialItems[item.variantId] ?? 'serial', serial);
    if (problem) {
      setNotice(problem);
      return false;
    }
    addOwnLine({ item, qty: 1, discount: 0, serial: serial.trim() });
    setAwaitingSerial(null);
    setSerialText('');
    return true;
  }, [addOwnLine, packs.serialItems]);

  const addCode = useCallback((code: string) => {
    const trimmed = code.trim();
    // Waiting for a serial: the scan is the unit's serial (or IMEI).
    if (awaitingSerial) return addSerial(awaitingSerial, trimmed);
    // A GS1 DataMatrix (issue 29): the item by its GTIN, with its serial or its lot.
    const gs1 = readGs1Scan(trimmed, index, packs);
    if (gs1.kind === 'error') {
      setNotice(gs1.message);
      return false;
    }
    if (gs1.kind === 'serial') return addSerial(gs1.item, gs1.serial);
    if (gs1.kind === 'lot' || gs1.kind === 'item') {
      const { item } = gs1;
      const lot = gs1.kind === 'lot' ? { ...gs1.lot, ...(gs1.expiry ? { expiry: gs1.expiry } : {}) } : null;
      updateCart((c) => ({ ...c, entries: addItem(c.entries, item, 1, lot ?? undefined) }));
      setNotice(lot && !lot.id ? `Lot ${lot.number} of ${item.name} is not on record at this store: the sale takes the first expiring lot`
        : gs1.kind === 'lot' && gs1.expiry && gs1.expiry < format(new Date(), 'yyyy-MM-dd') ? `Lot ${lot?.number ?? ''} expired on ${gs1.expiry}` : null);
      return true;
    }
    // A scale label (issue 29): its item by the label with the value zeroed, the weight or price as the quantity.
    const label = packs.packs.includes('scale_barcodes') ? matchScaleLabel(trimmed, packs.scaleRules) : null;
    if (label) {
      const weighed = lookupCode(index, label.baseCode);
      const qty = weighed ? labelQuantity(label, weighed.price, currencyDigits(store.currency)) : null;
      if (!weighed || qty === null || qty <= 0) {
        setNotice(weighed ? `The label ${trimmed} gives no quantity for ${weighed.name}` : `No item with the scale code ${label.itemCode}`);
        return false;
      }
      addOwnLine({ item: weighed, qty, discount: 0, scaleLabel: trimmed });
      return true;
    }
    // A serial in stock here (a phone's IMEI scanned from its box): its item, with the serial.
    const serialOf = packs.serials[trimmed];
    const serialItem = serialOf ? index.variant(serialOf) : undefined;
    if (serialItem) return addSerial(serialItem, trimmed);
    const item = lookupCode(index, trimmed);
    if (item && packs.serialItems[item.variantId]) {
      setAwaitingSerial(item);
      setNotice(null);
      return true;
    }
    if (!item) {
      if (RECEIPT_RE.test(trimmed)) {
        openRefund(trimmed);
        return true;
      }
      setNotice(`No item with the code ${code}`);
      return false;
    }
    setNotice(null);
    updateCart((c) => ({ ...c, entries: addItem(c.entries, item) }));
    return true;
  }, [index, openRefund, updateCart, awaitingSerial, addSerial, packs, store.currency, addOwnLine]);

  const addRef = useRef(addCode);
  useEffect(() => { addRef.current = addCode; }, [addCode]);

  const park = useCallback(async () => {
    if (cart.entries.length === 0) {
      setNotice('Nothing to park');
      return;
    }
    await parkCart(db, register.id, parkLabel(cart), cart);
    // The kept draft is emptied before the till shows an empty cart: a reload right after must not bring the
    // parked cart back onto the till as well (the effect that keeps the draft runs after the render).
    await saveDraft(db, register.id, emptyCart).catch(() => undefined);
    updateCart(() => emptyCart);
    setNotice('Cart parked');
    refreshParked();
  }, [cart, db, register.id, refreshParked, updateCart]);

  const resume = useCallback(async (id: string) => {
    const taken = await resumeParked(db, id);
    if (!taken) return;
    // The cart on the till is parked in its place, so resuming never loses one.
    if (cart.entries.length > 0) await parkCart(db, register.id, parkLabel(cart), cart);
    // An approval lasts 10 minutes on the server: one older than 9 (a cart parked a while) is asked for again.
    const resumed = withoutStaleApproval(taken.cart as CartState, Date.now());
    updateCart(() => resumed);
    setPanel(null);
    setNotice(`Resumed: ${taken.label}`);
    refreshParked();
  }, [cart, db, register.id, refreshParked, updateCart]);

  const run = useCallback((name: ShortcutName) => {
    const focusSoon = (el: () => HTMLElement | null) => setTimeout(() => el()?.focus(), 0);
    switch (name) {
      case 'search': setPanel(null); focusSoon(() => searchRef.current); break;
      case 'discount': setDiscountTarget('cart'); setPanel('discount'); break;
      case 'customer': setPanel('customer'); break;
      case 'park': void park(); break;
      case 'resume': setPanel('parked'); break;
      case 'refund': setRefundReceipt(''); setPanel('refund'); break;
      case 'shift': setPanel('shift'); break;
      case 'pay': setPanel(null); focusSoon(() => tenderRef.current); break;
      case 'switch': setPanel('switch'); break;
      default: (document.querySelector(`[data-tender="${name}"]`) as HTMLButtonElement | null)?.click();
    }
  }, [park]);

  // Scans land even when no field has focus (keystroke timing); Alt shortcuts and Escape from anywhere.
  const runRef = useRef(run);
  useEffect(() => { runRef.current = run; }, [run]);
  useEffect(() => {
    const detector = createScanDetector((code) => {
      addRef.current(code);
      setQuery('');
    });
    const onKey = (event: KeyboardEvent) => {
      const shortcut = shortcutOf(event);
      if (shortcut) {
        // The register's own: no other listener of the page acts on it too (moving focus away, say).
        event.preventDefault();
        event.stopPropagation();
        runRef.current(shortcut);
        return;
      }
      if (event.key === 'Escape') {
        setPanel(null);
        searchRef.current?.focus();
        return;
      }
      // A wedge scanner sends a DataMatrix's FNC1 as Ctrl+] (the GS control character).
      const key = event.ctrlKey && event.key === ']' ? '\u001d' : event.key;
      if (detector.key(key, event.timeStamp)) event.preventDefault();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const found = useMemo(() => searchCatalog(index, query), [index, query]);
  const addOne = useCallback((item: CatalogItem) => {
    if (packs.serialItems[item.variantId]) setAwaitingSerial(item);
    else updateCart((c) => ({ ...c, entries: addItem(c.entries, item) }));
  }, [updateCart, packs.serialItems]);
  const changeQty = useCallback((key: string, qty: number) => updateCart((c) => ({ ...c, entries: setQty(c.entries, key, qty) })),
    [updateCart]);
  const discountOn = useCallback((key: string) => { setDiscountTarget(key); setPanel('discount'); }, []);
  // A PLU typed at the register (scale pack): the item whose barcode the PLU builds under a rule, first in the results.
  const pluHit = useMemo(() => {
    if (!packs.packs.includes('scale_barcodes') || !/^\d{1,6}$/.test(query.trim())) return undefined;
    for (const rule of packs.scaleRules) {
      const code = pluBaseCode(query, rule);
      const item = code ? lookupCode(index, code) : undefined;
      if (item) return item;
    }
    return undefined;
  }, [packs, query, index]);

  // The toolbar and the search results change with the cart's emptiness and the query, not with every scan.
  const cartEmpty = cart.entries.length === 0;
  const hits = useMemo(() => (pluHit ? [pluHit, ...found.filter((i) => i !== pluHit)] : found), [pluHit, found]);
  const toolbar = useMemo(() => (
    <HStack wrap="wrap" gap="2" role="toolbar" aria-label="Register actions">
      <ShortcutButton name="discount" label="Discount" onClick={() => runRef.current('discount')} disabled={cartEmpty} />
      <ShortcutButton name="customer" label="Customer" onClick={() => runRef.current('customer')} />
      <ShortcutButton name="park" label="Park" onClick={() => runRef.current('park')} disabled={cartEmpty} />
      <ShortcutButton name="resume" label={`Parked (${parked.length})`} onClick={() => runRef.current('resume')} />
      <ShortcutButton name="refund" label="Refund" onClick={() => runRef.current('refund')} />
      <ShortcutButton name="shift" label="Shift" onClick={() => runRef.current('shift')} />
      <ShortcutButton name="switch" label="Switch cashier" onClick={() => runRef.current('switch')} />
    </HStack>
  ), [cartEmpty, parked.length]);
  const results = useMemo(() => (
    // data-query: the query these results are for (bench/register-browser.bench.ts waits for it).
    <Stack gap="0" borderWidth={hits.length > 0 ? '1px' : '0'} rounded="md" mt={hits.length > 0 ? '1' : '0'}
      role={hits.length > 0 ? 'listbox' : undefined} aria-label={hits.length > 0 ? 'Search results' : undefined}
      data-testid="pos-search-results" data-query={query} data-hits={hits.length}>
      {hits.map((item) => (
        <Button key={item.variantId} variant="ghost" justifyContent="space-between" role="option" aria-selected={false}
          onClick={() => { addOne(item); setQuery(''); }}>
          <HStack gap="2" minW="0"><PosThumb variantId={item.variantId} size="8" /><Text truncate>{item.name}</Text></HStack>
          <HStack gap="3" flexShrink={0}>
            {onHand?.has(item.variantId) && (
              <Text fontSize="sm" color="fg.muted" data-testid="pos-on-hand" data-sku={item.sku}>{onHand.get(item.variantId)} on hand</Text>
            )}
            <Text>{money(item.price)}</Text>
          </HStack>
        </Button>
      ))}
    </Stack>
  ), [hits, query, money, addOne, onHand]);

  const record = useCallback(async (paid: Tender[]) => {
    const seq = await nextSeq();
    const id = crypto.randomUUID();
    const occurredAt = new Date().toISOString();
    const offline = !online;
    await enqueue('sale', {
      id, register_id: register.id, shift_id: shift.id, occurred_at: occurredAt, receipt_seq: seq, offline,
      ...(cart.customer ? { customer_id: cart.customer.id } : {}),
      ...(cart.approval ? { approval_id: cart.approval.id } : {}),
      ...(cart.lotApproval ? { lot_approval_id: cart.lotApproval.id } : {}),
      ...tillSwitchPayload(tillCashier),
      lines: lines.map(saleLinePayload),
      tenders: paid.map(tenderPayload),
      // The kept cart leaves with the sale's queuing, in one transaction (never charged twice after a crash).
    }, { clearMeta: draftKey(register.id) });
    const receiptNumber = `${shift.receipt_prefix}-${String(seq).padStart(6, '0')}`;
    // Kept on the device for returns against a receipt made offline (refund-panel.tsx).
    const local: RefundableSale = {
      id, receipt_number: receiptNumber, occurred_at: occurredAt, total: totals.total, store_id: store.id, currency: store.currency,
      tenders: paid.map((t) => ({ kind: t.kind, amount: t.amount })),
      lines: lines.map((l, i) => ({ id: null, line_no: i + 1, description: l.item.name, qty: l.qty,
        line_total: lineFigures(l, store.tax_inclusive).total, refunded: 0 })),
    };
    const key = `recent:${register.id}`;
    await setMeta(db, key, [local, ...((await getMeta<RefundableSale[]>(db, key)) ?? [])].slice(0, RECENT_KEEP));
    // As when parking: a reload right after the sale must not bring its cart back from the kept draft.
    await saveDraft(db, register.id, emptyCart).catch(() => undefined);
    setReceipt({
      receiptNumber, occurredAt, saleId: id, storeName: store.name, logoUrl: logo.url ?? null,
      header: store.receipt_header, footer: store.receipt_footer, currency: store.currency,
      // Each line is qty x price, so the lines add up to the subtotal a customer checks with a calculator.
      lines: lines.map((l) => ({ ...receiptLine(l, store.tax_inclusive), ...lineDetail(l), lotNamed: Boolean(l.lot) })),
      // Online, the server picks the lots of lot-tracked lines: the effect below prints them once it has.
      awaitLots: !offline && awaitsLots(packs, lines.map((l) => ({ variantId: l.item.variantId, lotNamed: Boolean(l.lot) }))),
      taxInclusive: store.tax_inclusive,
      cashRounding: tenderState(totals.total, paid, step).rounding,
      subtotal: totals.subtotal, discount: totals.discount, tax: totals.tax, total: totals.total, taxByRate: totals.taxByRate,
      tenders: paid.map((t) => ({ kind: t.kind, amount: t.amount, tendered: t.tendered, change: t.tendered - t.amount,
        ...(t.foreign ? { foreign: { currency: t.foreign.currency, rate: t.foreign.rate, tendered: t.foreign.tendered } } : {}) })),
      pending: offline,
    });
    setCart(emptyCart);
    setTenders([]);
    setNotice(needsApproval ? 'Saved offline with a discount above your limit: flagged for the manager'
      : needsExpiredApproval ? 'Saved offline with an expired lot: flagged for the manager' : null);
  }, [cart, db, enqueue, lines, logo.url, needsApproval, needsExpiredApproval, nextSeq, online, register.id, shift, store, totals, step,
    tillCashier, packs]);

  const finish = useCallback(async (paid: Tender[]) => {
    // One sale per cart, however fast the last tender is pressed twice.
    if (finishing.current) return;
    finishing.current = true;
    try {
      await record(paid);
    } finally {
      finishing.current = false;
    }
  }, [record]);

  const onTenders = (next: Tender[]) => {
    setTenders(next);
    if (tenderState(totals.total, next, step).complete) void finish(next);
  };

  const findLocal = useCallback(async (code: string) => {
    const recent = (await getMeta<RefundableSale[]>(db, `recent:${register.id}`)) ?? [];
    const sale = recent.find((s) => s.receipt_number === code);
    return sale ? { ...sale, pending: await isWaiting(sale.id) } : null;
  }, [db, register.id, isWaiting]);

  const refund = useCallback(async (r: RefundRequest) => {
    const pending = Boolean(r.sale.pending);
    await enqueue('refund', {
      id: crypto.randomUUID(), sale_id: r.sale.id, register_id: register.id, shift_id: shift.id,
      occurred_at: new Date().toISOString(), offline: !online || pending, sale_pending: pending,
      tender_kind: r.tenderKind, ...(r.reason.trim() ? { reason: r.reason.trim() } : {}),
      ...(r.approvalId ? { approval_id: r.approvalId } : {}),
      // The person switched in makes the refund (post_refund names them and applies their role).
      ...tillSwitchPayload(tillCashier),
      lines: r.lines.map((l) => ({ line_no: l.line_no, qty: l.qty, disposition: l.disposition })),
    });
    // The device's copy of the sale remembers what was refunded (a second return of the same receipt offline).
    const key = `recent:${register.id}`;
    const recent = (await getMeta<RefundableSale[]>(db, key)) ?? [];
    await setMeta(db, key, recent.map((s) => (s.id !== r.sale.id ? s : {
      ...s, lines: s.lines.map((l) => {
        const part = r.lines.find((x) => x.line_no === l.line_no);
        return part ? { ...l, refunded: l.refunded + part.qty, refundedAmount: (l.refundedAmount ?? 0) + part.amount } : l;
      }) })));
    setPanel(null);
    setNotice(`Refund ${money(r.total)} to ${r.tenderKind}${pending || !online ? ' queued (flagged for the manager)' : ''}`);
    // The refund receipt, on screen with its print button (the drawer opens for cash paid back).
    setRefunded({ slip: refundSlip(r, store.currency, store.name, pending || !online), cash: r.tenderKind === 'cash' });
  }, [db, enqueue, money, online, register.id, shift.id, store.currency, store.name, tillCashier]);

  const applyDiscount = (target: string, discount: Discount | undefined) => {
    updateCart((c) => (target === 'cart' ? { ...c, cartDiscount: discount }
      : { ...c, entries: c.entries.map((e) => (lineKey(e) === target ? { ...e, lineDiscount: discount } : e)) }));
    setPanel(null);
  };

  return (
    <Stack gap="3" data-testid="pos-till">
      <HStack justify="space-between" wrap="wrap">
        <Text color="fg.muted">{store.name} · {register.name} · shift opened {new Date(shift.opened_at).toLocaleTimeString()}</Text>
        <HStack>
          <Text data-testid="till-cashier">Selling: <b>{tillCashier ? `${tillCashier.full_name} (${tillCashier.role})` : 'the signed-in person'}</b></Text>
          {tillCashier && <Button size="xs" variant="ghost" onClick={() => setTillCashier(null)}>End switch</Button>}
        </HStack>
      </HStack>
      {toolbar}
      <Flex direction={{ base: 'column', lg: 'row' }} gap="4" align="stretch">
        <Stack gap="3" flex="3" minW="0">
          <Box position="relative">
            <Input ref={searchRef} aria-label="Scan or search" aria-keyshortcuts={SHORTCUTS.search.aria} size={{ base: 'md', md: 'lg' }}
              placeholder={`Scan, or search by name, SKU or barcode (${SHORTCUTS.search.label})`} value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && query.trim()) {
                  if (addCode(query)) setQuery('');
                  // Not a code but a name: the first match is added, and the "no item with the code" notice goes.
                  else if (hits[0]) { addOne(hits[0]); setQuery(''); setNotice(null); }
                }
              }} />
            {results}
          </Box>
          {awaitingSerial && (
            <HStack as="form" wrap="wrap" role="group" aria-label="Serial number"
              onSubmit={(e) => { e.preventDefault(); addSerial(awaitingSerial, serialText); }}>
              <Text>{packs.serialItems[awaitingSerial.variantId] === 'imei' ? 'IMEI' : 'Serial number'} of {awaitingSerial.name}</Text>
              <Input aria-label="Serial or IMEI" maxW="xs" autoFocus value={serialText} onChange={(e) => setSerialText(e.target.value)} />
              <Button type="submit">Add</Button>
              <Button variant="ghost" onClick={() => { setAwaitingSerial(null); setSerialText(''); }}>Cancel</Button>
            </HStack>
          )}
          <PrescriptionPrompt waiting={needsPrescription} updateCart={updateCart} />
          {notice && <Text color="fg.warning" role="status">{notice}</Text>}
          {refunded && (
            <Stack gap="1" align="start">
              <SlipView slip={refunded.slip} openDrawer={refunded.cash} />
              <Button size="sm" variant="ghost" onClick={() => setRefunded(null)}>Dismiss the refund receipt</Button>
            </Stack>
          )}
          <Table.ScrollArea tabIndex={0}>
            <Table.Root size="sm" aria-label="Cart">
              <Table.Header><Table.Row><Table.ColumnHeader>Item</Table.ColumnHeader><Table.ColumnHeader>Qty</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader></Table.Row></Table.Header>
              <Table.Body>
                {lines.length === 0 && <Table.Row><Table.Cell colSpan={3}>Scan an item to start a sale.</Table.Cell></Table.Row>}
                {lines.map((line) => (
                  <CartRow key={lineKey(line)} lineId={lineKey(line)} item={line.item} qty={line.qty} discount={line.discount}
                    detail={lineDetail(line).detail} fixed={fixedQuantity(line)}
                    total={lineFigures(line, store.tax_inclusive).total} money={money} onQty={changeQty} onDiscount={discountOn} />
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <Stack gap="1">
            {totals.discount > 0 && <HStack justify="space-between"><Text>Discount</Text><Text data-testid="cart-discount">−{money(totals.discount)}</Text></HStack>}
            <HStack justify="space-between"><Text>Tax</Text><Text>{money(totals.tax)}</Text></HStack>
            <HStack justify="space-between" fontWeight="bold" fontSize="lg">
              <Text>Total</Text><Text data-testid="cart-total">{money(totals.total)}</Text>
            </HStack>
          </Stack>
        </Stack>
        <Stack gap="3" flex="2" minW="0">
          {cart.customer && panel !== 'customer' && (
            <HStack justify="space-between"><Text>Customer</Text><Text fontWeight="semibold" data-testid="pos-customer">{cart.customer.name}</Text></HStack>
          )}
          {panel === 'discount' && (
            <DiscountPanel cart={cart} currency={store.currency} target={discountTarget} limit={limit} onApply={applyDiscount}
              onClose={() => setPanel(null)} />
          )}
          {panel === 'approval' && (
            <ManagerApproval supabase={supabase} storeId={store.id} purpose="discount" maxPercent={maxPct} onCancel={() => setPanel(null)}
              onApproved={(id, percent) => { setCart((c) => ({ ...c, approval: { id, percent, at: Date.now() } })); setPanel(null); setNotice('Discount approved'); }} />
          )}
          {panel === 'lotApproval' && (
            <ManagerApproval supabase={supabase} storeId={store.id} purpose="expired_lot" maxPercent={0} onCancel={() => setPanel(null)}
              onApproved={(id) => { setCart((c) => ({ ...c, lotApproval: { id, at: Date.now() } })); setPanel(null); setNotice('Expired lot approved'); }} />
          )}
          {panel === 'switch' && (
            <SwitchCashierPanel supabase={supabase} db={db} storeId={store.id} registerId={register.id} online={online} onCancel={() => setPanel(null)}
              onSwitched={(who) => {
                setTillCashier(who);
                setPanel(null);
                setNotice(`${who.full_name} is selling now${who.proof ? ' (offline: checked when the sales sync)' : ''}`);
                searchRef.current?.focus();
              }} />
          )}
          {panel === 'customer' && (
            <CustomerPanel supabase={supabase} db={db} businessId={store.business_id} currency={store.currency} current={cart.customer}
              online={online} enqueue={enqueue} onAttach={(customer) => setCart((c) => ({ ...c, customer }))} onClose={() => setPanel(null)} />
          )}
          {panel === 'parked' && (
            <Stack gap="2" borderWidth="1px" rounded="md" p="3" role="group" aria-label="Parked carts">
              <Text fontWeight="semibold">Parked carts</Text>
              {parked.length === 0 && <Text>No parked carts on this register.</Text>}
              {parked.map((p) => (
                <Button key={p.id} variant="outline" justifyContent="space-between" onClick={() => void resume(p.id)}
                  aria-label={`Resume ${p.label}`}>
                  <Text truncate>{p.label}</Text><Text fontSize="sm">{new Date(p.parkedAt).toLocaleTimeString()}</Text>
                </Button>
              ))}
              <Button variant="ghost" onClick={() => setPanel(null)}>Close</Button>
            </Stack>
          )}
          {panel === 'refund' && (
            <RefundPanel supabase={supabase} storeId={store.id} currency={store.currency} receipt={refundReceipt} role={refundRole(role, sellingRole)}
              online={online} findLocal={findLocal} onRefund={refund} onClose={() => setPanel(null)} />
          )}
          {panel === 'shift' && (
            <ShiftPanel supabase={supabase} shift={shift} storeId={store.id} storeName={store.name} registerName={register.name}
              currency={store.currency} role={role} tillCashier={tillCashier} waiting={waiting} online={online} enqueue={enqueue}
              foreignCurrencies={rates.map((r) => r.currency)} onClose={props.onClose} onDone={() => setPanel(null)} />
          )}
          {receipt ? (
            // The receipt: receipt*.tsx and printing/ belong to the receipt feature, which adds print and email there.
            <Receipt data={receipt} onClose={() => { setReceipt(null); searchRef.current?.focus(); }} />
          ) : lines.length > 0 && (
            <Stack gap="2">
              {needsApproval && (
                online ? (
                  <HStack wrap="wrap">
                    <Text color="fg.warning">A discount of {maxPct.toFixed(1)} % is above your limit of {limit} %.</Text>
                    <Button onClick={() => setPanel('approval')}>Manager approval</Button>
                  </HStack>
                ) : <Text color="fg.warning">Offline: the discount above your limit is flagged for the manager.</Text>
              )}
              {expiredLots.length > 0 && (
                <HStack wrap="wrap" data-testid="pos-expired-lot">
                  <Text color="fg.warning">
                    {expiredLotText(expiredLots)}
                    {!needsExpiredApproval ? (cart.lotApproval ? ': approved by a manager.' : ': sold on your authority, recorded.')
                      : online ? ': a manager approves selling it.' : ': offline, the sale is flagged for the manager.'}
                  </Text>
                  {needsExpiredApproval && online && <Button onClick={() => setPanel('lotApproval')}>Manager approval</Button>}
                </HStack>
              )}
              <TenderPanel total={totals.total} step={step} currency={store.currency} rates={rates} tenders={tenders} onChange={onTenders}
                inputRef={tenderRef} disabled={((needsApproval || needsExpiredApproval) && online) || needsPrescription.length > 0} />
              <Text fontSize="xs" color="fg.muted">{SHORTCUTS.pay.label}: payment · Esc: back to scanning</Text>
            </Stack>
          )}
        </Stack>
      </Flex>
    </Stack>
  );
}
