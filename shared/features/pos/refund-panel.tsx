import { useCallback, useEffect, useState } from 'react';
import { Button, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import type { StorewiseClient } from '../../lib/supabase-client';
import { formatMinor } from './cart';
import { ManagerApproval } from './manager-approval';
import { findSaleByReceipt, type RefundableSale } from './pos-api';
import { originalTender, refundLineAmount } from './refund-math';

export const MAX_REFUND_LINES = 30;

export interface RefundRequest {
  sale: RefundableSale;
  lines: { line_no: number; qty: number; disposition: 'restock' | 'damaged'; amount: number }[];
  tenderKind: 'cash' | 'card' | 'other';
  reason: string;
  approvalId: string | null;
  total: number;
}

/**
 * A return against the original receipt: scan the receipt's barcode or type its number; the register looks in its
 * own recent sales first (a sale made offline, maybe not synced yet) and then on the server (what is left to
 * refund of each line). Part of any line, restocked or marked damaged, to the original tender unless changed.
 * A cashier needs a manager's approval online; offline the refund is queued and flagged for the manager.
 */
export function RefundPanel({ supabase, storeId, currency, receipt, role, online, findLocal, onRefund, onClose }: {
  supabase: StorewiseClient;
  storeId: string;
  currency: string;
  receipt: string;
  role: string;
  online: boolean;
  findLocal: (receipt: string) => Promise<RefundableSale | null>;
  onRefund: (request: RefundRequest) => Promise<void>;
  onClose: () => void;
}) {
  const money = (n: number) => formatMinor(n, currency);
  const [number, setNumber] = useState(receipt);
  const [sale, setSale] = useState<RefundableSale | null>(null);
  const [qty, setQty] = useState<Record<number, string>>({});
  const [disp, setDisp] = useState<Record<number, 'restock' | 'damaged'>>({});
  const [tender, setTender] = useState<'cash' | 'card' | 'other'>('cash');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [approving, setApproving] = useState(false);

  const lookup = useCallback(async (text: string): Promise<{ sale: RefundableSale } | { error: string } | null> => {
    const code = text.trim().toUpperCase();
    if (!code) return null;
    const local = await findLocal(code);
    // A sale still waiting in the outbox is only on this device; otherwise the server knows what is left.
    const found = (!local?.pending ? await findSaleByReceipt(supabase, storeId, code).catch(() => null) : null) ?? local;
    if (!found) return { error: `No sale with the receipt ${code}${online ? '' : ' on this register (offline)'}` };
    if (found.store_id !== storeId) return { error: 'That receipt is from another store: refund it there' };
    return { sale: found };
  }, [findLocal, supabase, online, storeId]);

  const apply = useCallback((result: { sale: RefundableSale } | { error: string } | null) => {
    if (!result) return;
    if ('error' in result) {
      setError(result.error);
      setSale(null);
      return;
    }
    setError(null);
    setSale(result.sale);
    setQty({});
    setDisp({});
    setTender(originalTender(result.sale.tenders));
  }, []);

  const find = (text: string) => void lookup(text).then(apply);
  useEffect(() => { if (receipt) void lookup(receipt).then(apply); }, [receipt, lookup, apply]);

  const chosen = (sale?.lines ?? []).map((line) => {
    const q = Number((qty[line.line_no] ?? '').replace(',', '.'));
    const left = Math.round((line.qty - line.refunded) * 1000) / 1000;
    const ok = Number.isFinite(q) && q > 0 && q <= left;
    return { line, q: ok ? q : 0, bad: (qty[line.line_no] ?? '').trim() !== '' && !ok, left };
  });
  const picked = chosen.filter((c) => c.q > 0);
  const total = picked.reduce((sum, c) => sum + refundLineAmount(c.line, c.q), 0);
  // post_refund takes at most 30 lines a refund (ADR 0171): more are refunded in a second one.
  const tooMany = picked.length > MAX_REFUND_LINES;
  const needsApproval = role === 'cashier' && online;
  // Offline a cashier refunds without a manager only to the original tender, up to the store's limit (ADR 0171).
  const tenderLocked = role === 'cashier' && !online;

  const submit = async (approvalId: string | null) => {
    if (!sale) return;
    try {
      await onRefund({
        sale, tenderKind: tenderLocked ? originalTender(sale.tenders) : tender, reason, approvalId, total,
        lines: picked.map((c) => ({ line_no: c.line.line_no, qty: c.q, disposition: disp[c.line.line_no] ?? 'restock',
          amount: refundLineAmount(c.line, c.q) })),
      });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Stack gap="2" borderWidth="1px" rounded="md" p="3" role="group" aria-label="Refund">
      <Text fontWeight="semibold">Return or refund</Text>
      <HStack as="form" wrap="wrap" onSubmit={(e) => { e.preventDefault(); find(number); }}>
        <Input aria-label="Receipt number" placeholder="Scan or type the receipt number" maxW="xs" value={number} autoFocus
          onChange={(e) => setNumber(e.target.value)} />
        <Button type="submit" variant="outline">Find receipt</Button>
        <Button variant="ghost" onClick={onClose}>Close</Button>
      </HStack>
      {sale && (
        <Stack gap="2">
          <Text data-testid="refund-sale">
            {sale.receipt_number} · {new Date(sale.occurred_at).toLocaleString()} · {money(sale.total)}
            {sale.pending ? ' · not synced yet: the refund is queued behind it and flagged' : ''}
          </Text>
          <Table.ScrollArea tabIndex={0}>
            <Table.Root size="sm" aria-label="Lines to refund">
              <Table.Header><Table.Row>
                <Table.ColumnHeader>Item</Table.ColumnHeader><Table.ColumnHeader>Left</Table.ColumnHeader>
                <Table.ColumnHeader>Refund qty</Table.ColumnHeader><Table.ColumnHeader>Goes</Table.ColumnHeader>
              </Table.Row></Table.Header>
              <Table.Body>
                {chosen.map(({ line, bad, left }) => (
                  <Table.Row key={line.line_no}>
                    <Table.Cell>{line.description}</Table.Cell>
                    <Table.Cell>{left}</Table.Cell>
                    <Table.Cell>
                      <Input size="sm" maxW="20" inputMode="decimal" aria-label={`Refund quantity of ${line.description}`}
                        aria-invalid={bad} disabled={left <= 0} value={qty[line.line_no] ?? ''}
                        onChange={(e) => setQty({ ...qty, [line.line_no]: e.target.value })} />
                    </Table.Cell>
                    <Table.Cell>
                      <NativeSelect.Root size="sm" maxW="36">
                        <NativeSelect.Field aria-label={`Restock or damaged: ${line.description}`} value={disp[line.line_no] ?? 'restock'}
                          onChange={(e) => setDisp({ ...disp, [line.line_no]: e.target.value as 'restock' | 'damaged' })}>
                          <option value="restock">Back to stock</option>
                          <option value="damaged">Damaged</option>
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <HStack wrap="wrap">
            <NativeSelect.Root maxW="xs" disabled={tenderLocked}>
              <NativeSelect.Field aria-label="Refund to" value={tenderLocked ? originalTender(sale.tenders) : tender}
                onChange={(e) => setTender(e.target.value as 'cash' | 'card' | 'other')}>
                {(['cash', 'card', 'other'] as const).map((k) => (
                  <option key={k} value={k}>{k === originalTender(sale.tenders) ? `${k} (original)` : k}</option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Input aria-label="Refund reason" placeholder="Reason (optional)" maxW="xs" value={reason} maxLength={500}
              onChange={(e) => setReason(e.target.value)} />
          </HStack>
          <Text fontWeight="bold">Refund <span data-testid="refund-total">{money(total)}</span></Text>
          {tooMany && (
            <Text color="fg.warning" role="status">
              A refund takes at most {MAX_REFUND_LINES} lines: refund these in two goes.
            </Text>
          )}
          {tenderLocked && (
            <Text color="fg.warning">
              Offline: the refund goes back to the original tender, within the store&apos;s limit for refunds without a manager,
              and is queued and flagged for a manager to review.
            </Text>
          )}
          {approving ? (
            <ManagerApproval supabase={supabase} storeId={storeId} purpose="refund" maxPercent={0} onCancel={() => setApproving(false)}
              onApproved={(id) => { setApproving(false); void submit(id); }} />
          ) : (
            <Button disabled={picked.length === 0 || tooMany || chosen.some((c) => c.bad)}
              onClick={() => (needsApproval ? setApproving(true) : void submit(null))}>
              {needsApproval ? 'Refund (manager approves)' : 'Refund'}
            </Button>
          )}
        </Stack>
      )}
      {error && <Text color="fg.error" role="alert">{error}</Text>}
    </Stack>
  );
}
