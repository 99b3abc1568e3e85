import { useEffect, useState } from 'react';
import { Box, Button, Grid, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { usePlatform } from '../../lib/platform-context';
import type { StorewiseClient } from '../../lib/supabase-client';
import { formatMinor, parseMinor } from './cart';
import { countedObject, countedTotal, denominationsFor, type DrawerCount } from './denominations';
import { ForeignCount, foreignCounted } from './foreign-count';
import { foreignRows } from './foreign-drawer';
import { sendSale, shiftHistory, xReport, type PosShift, type ShiftFigures, type ShiftRow } from './pos-api';
import { PrintReportButton } from './printing/print-report';
import { printSlip, shiftReportSlip } from './printing/print-slip';
import { tillSwitchPayload, type TillCashier } from './till-pins/switch-cashier-panel';

/** The figures of an X (open shift) or Z (closed) report. */
export function ShiftReport({ figures, currency, kind, storeName = null, registerName = null }: {
  figures: ShiftFigures; currency: string; kind: 'X' | 'Z'; storeName?: string | null; registerName?: string | null;
}) {
  const platform = usePlatform();
  const money = (n: number | null | undefined) => (n === null || n === undefined ? '–' : formatMinor(Number(n), currency));
  const rows: [string, string][] = [
    ['Opened', new Date(figures.opened_at).toLocaleString()],
    ...(figures.closed_at ? [['Closed', new Date(figures.closed_at).toLocaleString()] as [string, string]] : []),
    ['Starting float', money(figures.opening_float)],
    ['Sales', `${figures.sales_count} · ${money(figures.sales_total)}`],
    ['Discounts', money(figures.discount_total)],
    ['Tax', money(figures.tax_total)],
    ...Object.entries(figures.tenders).map(([k, v]) => [`Paid by ${k}`, money(v)] as [string, string]),
    // Cash rounding (ADR 0251): the cash tenders above are already rounded; what rounding added (or took off) is said.
    ...(figures.cash_rounding ? [['Cash rounding', money(figures.cash_rounding)]] as [string, string][] : []),
    ['Refunds', `${figures.refunds_count} · ${money(figures.refunds_total)}`],
    ...(figures.refunds_cash_rounding ? [['Refunds cash rounding', money(figures.refunds_cash_rounding)]] as [string, string][] : []),
    ['Cash in', money(figures.cash_in)],
    ['Cash out', money(figures.cash_out)],
    ['Cash expected', money(figures.expected_cash)],
    ...(kind === 'Z' ? [['Cash counted', money(figures.counted_total)], ['Difference', money(figures.difference)]] as [string, string][] : []),
    ...foreignRows(figures, kind),
    ...(figures.flagged_count > 0 ? [['Flagged for review', String(figures.flagged_count)]] as [string, string][] : []),
    // The Z report is frozen at the close; what the register's outbox delivered later is shown apart.
    ...(kind === 'Z' && figures.after_close ? [
      ['After close: sales', `${figures.after_close.sales_count} · ${money(figures.after_close.sales_total)}`],
      ['After close: refunds', `${figures.after_close.refunds_count} · ${money(figures.after_close.refunds_total)}`],
      ['After close: cash', money(figures.after_close.cash_change)],
    ] as [string, string][] : []),
  ];
  return (
    <Box className="pos-report" borderWidth="1px" rounded="md" p="3" fontFamily="mono" fontSize="sm" data-testid={`${kind.toLowerCase()}-report`}>
      <Text fontWeight="bold">{kind} report</Text>
      {rows.map(([label, value]) => (
        <HStack key={label} justify="space-between"><Text>{label}</Text>
          <Text data-testid={label === 'Difference' ? 'shift-difference' : label === 'Cash rounding' ? 'shift-cash-rounding'
            : /^[A-Z]{3} /.test(label) ? `shift-${label.replace(' ', '-')}` : undefined}>{value}</Text></HStack>
      ))}
      <PrintReportButton kind={kind}
        onPrint={() => printSlip(platform, shiftReportSlip(figures, kind, currency, storeName, registerName), { openDrawer: false })} />
    </Box>
  );
}

/**
 * The shift: cash in and out with a reason, the X report at any time, the close with cash counted by
 * denomination (expected vs counted and the difference are recorded by close_shift, which returns the Z report),
 * and for owners and managers the store's shift history.
 */
export function ShiftPanel({ supabase, shift, storeId, storeName = null, registerName = null, currency, role, tillCashier = null,
  waiting, online, enqueue, onClose, onDone, foreignCurrencies = [] }: {
  supabase: StorewiseClient;
  shift: PosShift;
  storeId: string;
  /** Printed at the top of the X report. */
  storeName?: string | null;
  registerName?: string | null;
  currency: string;
  role: string;
  /** The person switched in by PIN (ADR 0300): cash in and out names them, as sales and refunds do. */
  tillCashier?: TillCashier | null;
  waiting: number;
  online: boolean;
  /** Queues cash in or out when it cannot be recorded now (offline): it syncs in order with the sales (ADR 0155). */
  enqueue: (kind: 'cash', payload: Record<string, unknown> & { id: string }) => Promise<void>;
  /** Queues the close behind the shift's sales; the Z figures when it synced at once, else null. */
  onClose: (counted: DrawerCount) => Promise<ShiftFigures | null>;
  /** The foreign currencies the register takes (its rates), counted apart at the close (ADR 0395). */
  foreignCurrencies?: string[];
  onDone: () => void;
}) {
  const money = (n: number) => formatMinor(n, currency);
  const [kind, setKind] = useState<'in' | 'out'>('out');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [x, setX] = useState<ShiftFigures | null>(null);
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [foreignTexts, setForeignTexts] = useState<Record<string, string>>({});
  const [closing, setClosing] = useState(false);
  const [history, setHistory] = useState<ShiftRow[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const counted = countedObject(counts);
  const total = countedTotal(counted);
  const manager = role === 'owner' || role === 'manager';
  // Every currency the register takes, and any the shift holds that it no longer takes (a rate removed meanwhile).
  const foreignHeld = [...new Set([...foreignCurrencies, ...(x?.foreign_cash ?? []).map((f) => f.currency)])].sort();

  useEffect(() => {
    if (!manager) return;
    let stale = false;
    shiftHistory(supabase, storeId).then((rows) => { if (!stale) setHistory(rows); }, () => { if (!stale) setHistory([]); });
    return () => { stale = true; };
  }, [supabase, storeId, manager]);

  const run = async (task: () => Promise<void>) => {
    setError(null);
    setMessage(null);
    try { await task(); } catch (e) { setError(e instanceof Error ? e.message : String(e)); }
  };

  const moveCash = () => run(async () => {
    const minor = parseMinor(amount, currency);
    if (minor === null || minor <= 0) throw new Error('Enter an amount above zero');
    if (!reason.trim()) throw new Error('Give a reason');
    // The movement's id and time are the register's: online it is recorded at once, otherwise (or when the
    // answer was lost) the same id is queued and the server writes it once.
    const payload = { id: crypto.randomUUID(), shift_id: shift.id, kind, amount: minor, reason: reason.trim(), at: new Date().toISOString(),
      offline: !online, ...tillSwitchPayload(tillCashier) };
    const sent = online
      ? await sendSale(supabase, { id: payload.id, seq: 0, kind: 'cash', payload, createdAt: payload.at, attempts: 0 })
      : null;
    if (sent?.status === 'rejected') throw new Error(sent.error);
    if (sent?.status !== 'done') await enqueue('cash', payload);
    setMessage(`Cash ${kind} ${money(minor)} ${sent?.status === 'done' ? 'recorded' : 'saved on this register: it syncs when back online'}`);
    setAmount('');
    setReason('');
  });

  return (
    <Stack gap="3" borderWidth="1px" rounded="md" p="3" role="group" aria-label="Shift">
      <HStack justify="space-between" wrap="wrap">
        <Text fontWeight="semibold">Shift opened {new Date(shift.opened_at).toLocaleString()}</Text>
        <Button variant="ghost" onClick={onDone}>Close panel</Button>
      </HStack>
      <HStack as="form" wrap="wrap" onSubmit={(e) => { e.preventDefault(); void moveCash(); }}>
        <NativeSelect.Root maxW="28">
          <NativeSelect.Field aria-label="Cash in or out" value={kind} onChange={(e) => setKind(e.target.value as 'in' | 'out')}>
            <option value="out">Cash out</option>
            <option value="in">Cash in</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Input aria-label="Cash amount" placeholder="Amount" maxW="28" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        <Input aria-label="Cash reason" placeholder="Reason" maxW="xs" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
        <Button type="submit" variant="outline">Record cash</Button>
      </HStack>
      <HStack wrap="wrap">
        <Button variant="outline" onClick={() => void run(async () => setX(await xReport(supabase, shift.id)))}>X report</Button>
        <Button variant="outline" aria-expanded={closing} onClick={() => {
          // Online, the X report gives the expected cash beside the count (per currency too), unless it is shown already.
          if (!closing && online && !x) void xReport(supabase, shift.id).then(setX, () => undefined);
          setClosing(!closing);
        }}>Close shift…</Button>
      </HStack>
      {x && <ShiftReport figures={x} currency={currency} kind="X" storeName={storeName} registerName={registerName} />}
      {closing && (
        <Stack as="form" gap="2" aria-label="Count the drawer" onSubmit={(e) => {
          e.preventDefault();
          const foreign = foreignCounted(foreignTexts);
          void run(async () => { await onClose(Object.keys(foreign).length > 0 ? { ...counted, foreign } : counted); });
        }}>
          <Text fontWeight="semibold">Count the drawer</Text>
          <Grid templateColumns={{ base: 'repeat(2, 1fr)', md: 'repeat(5, 1fr)' }} gap="2">
            {denominationsFor(currency).map((d) => (
              <HStack key={d} gap="1">
                <Text minW="16" textAlign="end" fontSize="sm">{money(d)} ×</Text>
                <Input size="sm" inputMode="numeric" aria-label={`Count of ${money(d)}`} value={counts[d] ?? ''}
                  onChange={(e) => setCounts({ ...counts, [d]: e.target.value })} />
              </HStack>
            ))}
          </Grid>
          <ForeignCount currencies={foreignHeld} expected={x?.foreign_cash ?? null} texts={foreignTexts} onChange={setForeignTexts} />
          <Text>Counted <span data-testid="counted-total">{money(total)}</span>
            {x ? ` · expected ${money(x.expected_cash)} · difference ${money(total - x.expected_cash)}` : ''}</Text>
          {(waiting > 0 || !online) && (
            <Text color="fg.warning" role="status">
              {online ? `${waiting} waiting to sync: the close is sent after them.` : 'Offline: the close is saved on this register.'}
              {' '}The expected cash and the difference are computed when the register is back online.
            </Text>
          )}
          <Button type="submit">Close shift with this count</Button>
        </Stack>
      )}
      {message && <Text role="status">{message}</Text>}
      {error && <Text color="fg.error" role="alert">{error}</Text>}
      {manager && history && history.length > 0 && (
        <Stack gap="1">
          <Text fontWeight="semibold">Shift history</Text>
          <Table.ScrollArea tabIndex={0}>
            <Table.Root size="sm" aria-label="Shift history">
              <Table.Header><Table.Row>
                <Table.ColumnHeader>Opened</Table.ColumnHeader><Table.ColumnHeader>Closed</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Expected</Table.ColumnHeader><Table.ColumnHeader textAlign="end">Counted</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Difference</Table.ColumnHeader>
              </Table.Row></Table.Header>
              <Table.Body>
                {history.map((h) => (
                  <Table.Row key={h.id}>
                    <Table.Cell>
                      {new Date(h.opened_at).toLocaleString()}
                      {h.opened_in_conflict && (
                        <Text fontSize="xs" color="fg.warning" data-testid="shift-conflict">
                          Opened offline while another shift was open: check both
                        </Text>
                      )}
                    </Table.Cell>
                    <Table.Cell>{h.closed_at ? new Date(h.closed_at).toLocaleString() : 'open'}</Table.Cell>
                    <Table.Cell textAlign="end">{h.expected_cash === null ? '–' : money(Number(h.expected_cash))}</Table.Cell>
                    <Table.Cell textAlign="end">{h.counted_total === null ? '–' : money(Number(h.counted_total))}</Table.Cell>
                    <Table.Cell textAlign="end" color={h.difference ? 'fg.warning' : undefined}>
                      {h.difference === null ? '–' : money(Number(h.difference))}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        </Stack>
      )}
    </Stack>
  );
}
