/**
 * Issue 22, finding 11: every email a member can make the platform send (purchase orders, receipts, invitations)
 * counts against hourly caps per account and per business, low for Free and trials. Past a cap the call is refused
 * with SQLSTATE PT429, which PostgREST (and the local gateway) answer as HTTP 429, with a sentence saying when to
 * try again. Before: a new Free account queued 45 purchase-order emails to an outside address in about a second.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient } from '../helpers/stack';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;

async function freeAccount(email: string): Promise<{ client: SupabaseClient; business: string }> {
  const service = createTestClient(w.stack, 'service');
  const created = await service.auth.admin.createUser({ email, password: 'email-caps-pw', email_confirm: true,
    user_metadata: { full_name: 'Free Owner', business_name: 'Free Mail Shop' } });
  if (created.error || !created.data.user) throw new Error(created.error?.message);
  const client = createTestClient(w.stack);
  const signed = await client.auth.signInWithPassword({ email, password: 'email-caps-pw' });
  if (signed.error) throw new Error(signed.error.message);
  const [{ id: business } = { id: '' }] = await w.rows<{ id: string }>(
    'select id from public.businesses where owner_id = $1', [created.data.user.id]);
  return { client, business };
}

beforeAll(async () => {
  w = await startCatalogWorld();
}, 600_000);

afterAll(async () => {
  await w?.stack.stop();
}, 120_000);

describe('hourly email caps', () => {
  it('a new Free account cannot send purchase orders in bulk to an outside address: 429 past its cap', async () => {
    const { client, business } = await freeAccount('bulk-mailer@caps.test');
    const store = await client.from('stores').insert({ business_id: business, name: 'Mail Shop' }).select('id').single();
    expect(store.error).toBeNull();
    const supplier = await client.from('suppliers').insert({ business_id: business, name: 'Target',
      email: 'victim@outside.example' }).select('id').single();
    const product = await client.from('products').insert({ business_id: business, name: 'Bait' }).select('id').single();
    const variant = await client.from('variants').insert({ business_id: business, product_id: product.data?.id,
      sku: 'BAIT', price: 1 }).select('id').single();
    expect([supplier.error, product.error, variant.error]).toEqual([null, null, null]);
    const orders: string[] = [];
    for (let i = 0; i < 15; i += 1) {
      const po = await client.rpc('create_purchase_order', { _store_id: store.data?.id, _supplier_id: supplier.data?.id,
        _lines: [{ variant_id: variant.data?.id, qty: 1 }], _notes: 'Click http://evil.example' });
      expect(po.error).toBeNull();
      const id = (po.data as { id: string } | string);
      const poId = typeof id === 'string' ? id : id.id;
      expect((await client.from('purchase_orders').update({ status: 'ordered' }).eq('id', poId)).error).toBeNull();
      orders.push(poId);
    }
    const outcomes: { status: number; code?: string; message?: string }[] = [];
    for (const id of orders) {
      for (let k = 0; k < 3; k += 1) {
        const { error, status } = await client.rpc('email_purchase_order', { _purchase_order_id: id });
        outcomes.push({ status, code: error?.code, message: error?.message });
      }
    }
    const sent = outcomes.filter((o) => !o.code).length;
    expect(sent).toBe(10);
    const refused = outcomes.filter((o) => o.code === 'PT429');
    expect(refused.length).toBe(35);
    expect(refused[0]?.status).toBe(429);
    expect(refused[0]?.message).toMatch(/10 emails in the last hour.*try again/i);
    const queued = await w.rows<{ n: number }>(
      `select count(*)::int as n from public.email_outbox where to_email = 'victim@outside.example'`);
    expect(queued[0]?.n).toBe(10);
  });

  it('receipts and invitations count too, against the business\'s cap as well as each account\'s', async () => {
    // Business A (Growth, paid) has sent close to its hourly cap already: earlier sends by other accounts.
    const [{ cap } = { cap: 0 }] = await w.rows<{ cap: number }>(
      'select per_business as cap from private.email_caps($1)', [w.businessA]);
    expect(cap).toBeGreaterThan(10);
    await w.rows(`insert into private.email_sends (business_id, user_id, kind, at)
      select $1, gen_random_uuid(), 'receipt', now() - interval '10 minutes'
        from generate_series(1, $2::int - 1 - (select count(*)::int from private.email_sends
                                                where business_id = $1 and at > now() - interval '1 hour'))`,
      [w.businessA, cap]);
    const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(
      `select id from public.registers where receipt_prefix = 'DT1'`);
    const shift = await w.clients.cashier.rpc('open_shift', { _register_id: register, _opening_float: 0 });
    const sale = await w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: register,
      shift_id: (shift.data as { id: string }).id, lines: [{ variant_id: w.f.variant, qty: 1 }],
      tenders: [{ kind: 'card', amount: 1524 }] } });
    expect(sale.error?.message).toBeUndefined();
    const saleId = (sale.data as { id: string }).id;
    const first = await w.clients.cashier.rpc('request_receipt_email', { _sale_id: saleId, _email: 'a@customer.test' });
    expect(first.error).toBeNull();
    const second = await w.clients.cashier.rpc('request_receipt_email', { _sale_id: saleId, _email: 'a@customer.test' });
    expect(second.status).toBe(429);
    expect(second.error?.code).toBe('PT429');
    expect(second.error?.message).toMatch(/this business/i);
    const invite = await w.clients.owner.rpc('create_invitation', { _business_id: w.businessA,
      _email: 'late@caps.test', _role: 'cashier', _all_stores: false, _store_ids: [downtown] });
    expect(invite.error?.code).toBe('PT429');
    expect(await w.rows(`select 1 from public.invitations where email = 'late@caps.test'`)).toEqual([]);
  });
});
