/**
 * Issue 22, findings 6, 7, 8, 10 and two of 12, over HTTP with supabase-js on the real stack:
 * - a trial past its end counts as Free at once (limits, my_workspaces, my_plan), and a business has one trial;
 * - prices, costs, reorder points and deletions of suppliers, barcodes, categories and draft orders leave a trail
 *   entry with before and after;
 * - the trail names its actor by account (user id and email at the time), not by the editable profile name;
 * - the plan's product limit counts sellable variants, so a Free business cannot sell 300 sizes of one product;
 * - post_count checks a named lot before it writes anything; managers do not read invitation entries.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient } from '../helpers/stack';
import { downtown, startCatalogWorld, type CatalogWorld } from './support/catalog-world';
import { seedUsers } from './support/seed-ids';

let w: CatalogWorld;
let owner2: SupabaseClient;
const password = 'trail-trial-pw';

/** A new confirmed account signed in; invited accounts found no business of their own. */
async function newAccount(email: string, invited = false): Promise<{ client: SupabaseClient; id: string }> {
  const service = createTestClient(w.stack, 'service');
  const meta = invited ? { full_name: 'Invited Person', invited: true } : { full_name: 'New Owner', business_name: `Shop ${email}` };
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: meta });
  if (created.error || !created.data.user) throw new Error(created.error?.message);
  const client = createTestClient(w.stack);
  const signed = await client.auth.signInWithPassword({ email, password });
  if (signed.error) throw new Error(signed.error.message);
  return { client, id: created.data.user.id };
}

async function workspaceOf(client: SupabaseClient, businessId: string) {
  const { data, error } = await client.rpc('my_workspaces');
  expect(error).toBeNull();
  return (data as { id: string; plan: string; max_stores: number | null; max_products: number | null }[])
    .find((r) => r.id === businessId);
}

const trail = (kind: string, entityId: string) => w.rows<{ kind: string; before: Record<string, unknown> | null;
  after: Record<string, unknown> | null; actor_id: string | null; store_id: string | null }>(
  `select kind, before, after, actor_id, store_id from public.activity where kind = $1 and entity_id = $2 order by id`,
  [kind, entityId]);

beforeAll(async () => {
  w = await startCatalogWorld();
  owner2 = w.clients.other;
}, 600_000);

afterAll(async () => {
  await w?.stack.stop();
}, 120_000);

describe('finding 6: a trial ends', () => {
  it('a trial past its end counts as Free in limits, my_workspaces and the billing page, and choosing Pro changes nothing', async () => {
    // owner2 is on a Starter trial (seed), which counts as Starter until it ends; here it ended a minute ago.
    expect((await workspaceOf(owner2, w.businessB))?.plan).toBe('Starter');
    await w.rows(`update public.user_plans set next_billing_date = now() - interval '1 minute' where user_id = $1`,
      [seedUsers.owner2.id]);
    expect((await workspaceOf(owner2, w.businessB))?.plan).toBe('Free');
    const plan = await owner2.rpc('my_plan').maybeSingle();
    expect(plan.error).toBeNull();
    expect(plan.data).toMatchObject({ plan_name: 'Starter', status: 'expired', effective_plan: 'Free' });

    // Choosing again after the trial ended is refused: a paid plan goes through the payment provider (issue 24).
    const chosen = await owner2.rpc('choose_plan', { _plan_name: 'Pro' });
    expect(chosen.error?.code).toBe('SW002');
    expect(await workspaceOf(owner2, w.businessB)).toMatchObject({ plan: 'Free', max_stores: 1, max_products: 25 });
    // Free allows one store (the business has one): a second is refused as on Free, not allowed as on Pro.
    const store = await owner2.from('stores').insert({ business_id: w.businessB, name: 'Second shop' }).select('id');
    expect(store.error?.code).toBe('SW001');
    const invite = await owner2.rpc('create_invitation', { _business_id: w.businessB, _email: 'helper@trial.test',
      _role: 'cashier' });
    expect(invite.error?.code).toBe('SW001');
  });

  it('nothing existing is blocked: the ended trial still sells', async () => {
    const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(
      `select r.id from public.registers r where r.business_id = $1 and r.archived_at is null limit 1`, [w.businessB]);
    const product = (await w.rows<{ id: string }>(`insert into public.products (business_id, name) values ($1, 'Trial Tee')
      returning id`, [w.businessB]))[0]?.id;
    const variant = (await w.rows<{ id: string }>(`insert into public.variants (business_id, product_id, sku, price)
      values ($1, $2, 'TRIAL-TEE', 500) returning id`, [w.businessB, product]))[0]?.id;
    const shift = await owner2.rpc('open_shift', { _register_id: register, _opening_float: 0 });
    expect(shift.error).toBeNull();
    const sale = await owner2.rpc('post_sale', { _payload: { id: randomUUID(), register_id: register,
      shift_id: (shift.data as { id: string }).id, lines: [{ variant_id: variant, qty: 1 }],
      tenders: [{ kind: 'card', amount: 500 }] } });
    expect(sale.error?.message).toBeUndefined();
  });

  it('a business has one trial: a new owner taking it over cannot start another', async () => {
    const first = await newAccount('first-owner@trial.test');
    const [{ id: business } = { id: '' }] = await w.rows<{ id: string }>(
      'select id from public.businesses where owner_id = $1', [first.id]);
    expect((await first.client.rpc('choose_plan', { _plan_name: 'Growth' })).error).toBeNull();
    expect((await workspaceOf(first.client, business))?.plan).toBe('Growth');

    const second = await newAccount('second-owner@trial.test', true);
    const invited = await first.client.rpc('create_invitation', { _business_id: business,
      _email: 'second-owner@trial.test', _role: 'manager' });
    expect(invited.error).toBeNull();
    const token = (invited.data as { token: string }[])[0]?.token;
    expect((await second.client.rpc('accept_invitation', { _token: token })).error).toBeNull();
    expect((await first.client.rpc('transfer_ownership', { _business_id: business, _new_owner: second.id })).error)
      .toBeNull();
    // The first owner's trial does not follow the business to someone else, and no second trial starts.
    expect((await workspaceOf(second.client, business))?.plan).toBe('Free');
    const again = await second.client.rpc('choose_plan', { _plan_name: 'Pro' });
    expect(again.error?.code).toBe('SW002');
    expect(again.error?.message).toMatch(/already had its free trial/);
    expect((await workspaceOf(second.client, business))?.plan).toBe('Free');
  });
});

describe('finding 7: price, cost and deletion changes leave a trail', () => {
  it('store prices: insert, update and delete each leave before and after', async () => {
    const m = w.clients.manager;
    expect((await m.from('store_prices').insert({ business_id: w.businessA, store_id: downtown, variant_id: w.f.variant2,
      price: 1700 })).error).toBeNull();
    expect((await m.from('store_prices').update({ price: 1650 }).eq('store_id', downtown).eq('variant_id', w.f.variant2))
      .error).toBeNull();
    expect((await m.from('store_prices').delete().eq('store_id', downtown).eq('variant_id', w.f.variant2)).error)
      .toBeNull();
    const rows = await w.rows<{ kind: string; before: { price: number } | null; after: { price: number } | null;
      store_id: string }>(`select kind, before, after, store_id from public.activity
       where entity_type = 'store_price' and entity_id = $1 order by id`, [w.f.variant2]);
    expect(rows.map((r) => [r.kind, r.before?.price ?? null, r.after?.price ?? null, r.store_id])).toEqual([
      ['store_price.created', null, 1700, downtown],
      ['store_price.updated', 1700, 1650, downtown],
      ['store_price.deleted', 1650, null, downtown],
    ]);
  });

  it('variant costs: insert, update and delete', async () => {
    const o = w.clients.owner;
    expect((await o.from('variant_costs').insert({ variant_id: w.f.variant2, business_id: w.businessA, cost: 610 }))
      .error).toBeNull();
    expect((await o.from('variant_costs').update({ cost: 640 }).eq('variant_id', w.f.variant2)).error).toBeNull();
    await w.rows('delete from public.variant_costs where variant_id = $1', [w.f.variant2]);
    const rows = await w.rows<{ kind: string; before: { cost: number } | null; after: { cost: number } | null }>(
      `select kind, before, after from public.activity where entity_type = 'variant_cost' and entity_id = $1 order by id`,
      [w.f.variant2]);
    expect(rows.map((r) => [r.kind, r.before?.cost ?? null, r.after?.cost ?? null])).toEqual([
      ['variant_cost.created', null, 610], ['variant_cost.updated', 610, 640], ['variant_cost.deleted', 640, null],
    ]);
  });

  it('deleting a supplier, barcode, category, draft purchase order or reorder point is in the trail', async () => {
    const m = w.clients.manager;
    const one = async (sql: string, params: unknown[]) => (await w.rows<{ id: string }>(sql, params))[0]?.id ?? '';
    const supplier = await one(`insert into public.suppliers (business_id, name) values ($1, 'Gone Supply') returning id`,
      [w.businessA]);
    const barcode = await one(`insert into public.barcodes (business_id, variant_id, code, kind)
      values ($1, $2, '96385074', 'ean8') returning id`, [w.businessA, w.f.variant2]);
    const category = await one(`insert into public.categories (business_id, name) values ($1, 'Gone aisle') returning id`,
      [w.businessA]);
    expect((await m.from('suppliers').delete().eq('id', supplier)).error).toBeNull();
    expect((await m.from('barcodes').delete().eq('id', barcode)).error).toBeNull();
    expect((await m.from('categories').delete().eq('id', category)).error).toBeNull();
    expect((await m.from('purchase_orders').delete().eq('id', w.f.poDowntown)).error).toBeNull();
    expect((await m.from('reorder_points').delete().eq('store_id', downtown).eq('variant_id', w.f.variant)).error)
      .toBeNull();

    expect((await trail('supplier.deleted', supplier))[0]?.before).toMatchObject({ name: 'Gone Supply' });
    expect((await trail('barcode.deleted', barcode))[0]?.before).toMatchObject({ code: '96385074' });
    expect((await trail('category.deleted', category))[0]?.before).toMatchObject({ name: 'Gone aisle' });
    const po = (await trail('purchase_order.deleted', w.f.poDowntown))[0];
    expect(po?.before).toMatchObject({ status: 'draft', lines: [{ variant_id: w.f.variant, qty_ordered: 10, unit_cost: 700 }] });
    expect(po?.actor_id).toBe(w.userIds.manager);
    const rp = (await trail('reorder_point.deleted', w.f.variant))[0];
    expect(rp).toMatchObject({ store_id: downtown, after: null });
    expect(Number(rp?.before?.reorder_point)).toBe(5);
  });
});

describe('finding 8: the actor is the account, not a chosen name', () => {
  it('a manager renamed to the owner\'s name is still shown by their own email, in the trail and in stock history', async () => {
    const [{ full_name: ownerName } = { full_name: '' }] = await w.rows<{ full_name: string }>(
      'select full_name from public.profiles where id = $1', [w.userIds.owner]);
    expect((await w.clients.manager.from('profiles').update({ full_name: ownerName }).eq('id', w.userIds.manager)).error)
      .toBeNull();
    expect((await w.clients.manager.from('store_prices').update({ price: 1390 }).eq('store_id', downtown)
      .eq('variant_id', w.f.variant)).error).toBeNull();
    const [entry] = await w.rows<{ actor_id: string; actor_email: string; actor_label: string }>(
      `select actor_id, actor_email, actor_label from public.activity where kind = 'store_price.updated'
        and entity_id = $1 order by id desc limit 1`, [w.f.variant]);
    expect(entry).toEqual({ actor_id: w.userIds.manager, actor_email: 'manager@catalog.storewise.test', actor_label: ownerName });
    // What the Activity page reads over the API carries the email too.
    const read = await w.clients.owner.from('activity').select('actor_email').eq('kind', 'store_price.updated')
      .eq('entity_id', w.f.variant).order('id', { ascending: false }).limit(1);
    expect(read.data).toEqual([{ actor_email: 'manager@catalog.storewise.test' }]);

    const adjusted = await w.clients.manager.rpc('adjust_stock', { _store_id: downtown, _variant_id: w.f.variant,
      _qty: -1, _reason: 'damaged' });
    expect(adjusted.error?.message).toBeUndefined();
    const history = await w.clients.owner.rpc('stock_history', { _store_id: downtown, _variant_id: w.f.variant, _limit: 1 });
    expect(history.error).toBeNull();
    expect((history.data as { actor_id: string; actor_email: string }[])[0]).toMatchObject({
      actor_id: w.userIds.manager, actor_email: 'manager@catalog.storewise.test' });
  });

  it('a sale\'s stock entries carry the cashier\'s email', async () => {
    const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>(
      `select id from public.registers where receipt_prefix = 'DT1'`);
    const shift = await w.clients.cashier.rpc('open_shift', { _register_id: register, _opening_float: 0 });
    expect(shift.error).toBeNull();
    const sale = await w.clients.cashier.rpc('post_sale', { _payload: { id: randomUUID(), register_id: register,
      shift_id: (shift.data as { id: string }).id, lines: [{ variant_id: w.f.variant, qty: 1 }],
      tenders: [{ kind: 'card', amount: 1513 }] } });
    expect(sale.error?.message).toBeUndefined();
    const [entry] = await w.rows<{ actor_id: string; actor_email: string }>(
      `select actor_id, actor_email from public.activity where kind = 'stock.sale' order by id desc limit 1`);
    expect(entry).toEqual({ actor_id: w.userIds.cashier, actor_email: 'cashier@catalog.storewise.test' });
  });
});

describe('finding 10: the product limit bounds what is sold', () => {
  it('a Free business cannot sell 300 variants of one product: variants count against the limit', async () => {
    const free = await newAccount('free-variants@trial.test');
    const [{ id: business } = { id: '' }] = await w.rows<{ id: string }>(
      'select id from public.businesses where owner_id = $1', [free.id]);
    const product = await free.client.from('products').insert({ business_id: business, name: 'Many Sizes',
      option1_name: 'Size' }).select('id').single();
    expect(product.error).toBeNull();
    const variantRow = (i: number) => ({ business_id: business, product_id: product.data?.id as string,
      option1: `S${i}`, sku: `MANY-${i}`, price: 100 });
    const many = Array.from({ length: 300 }, (_, i) => variantRow(i));
    const bulk = await free.client.from('variants').insert(many);
    expect(bulk.error?.code).toBe('SW001');
    expect(bulk.error?.message).toMatch(/Free plan allows 25 items/);
    for (let i = 0; i < 25; i += 1) {
      const one = await free.client.from('variants').insert(variantRow(i));
      expect(one.error, `variant ${i}`).toBeNull();
    }
    const extra = await free.client.from('variants').insert(variantRow(25));
    expect(extra.error?.code).toBe('SW001');
    // A second product at the limit cannot be created either, and the chooser counts items as the database does.
    const another = await free.client.from('products').insert({ business_id: business, name: 'One more' });
    expect(another.error?.code).toBe('SW001');
    const usage = await free.client.rpc('my_plan_usage');
    expect((usage.data as { products_used: number }[])[0]?.products_used).toBe(25);
  });
});

describe('finding 12: a count checks the lot first; managers do not read invitation entries', () => {
  it('post_count refuses another business\'s lot before writing a balance row', async () => {
    const foreignProduct = (await w.rows<{ id: string }>(`insert into public.products (business_id, name, has_lots)
      values ($1, 'Foreign Drops', true) returning id`, [w.businessB]))[0]?.id;
    const foreignVariant = (await w.rows<{ id: string }>(`insert into public.variants (business_id, product_id, sku, price)
      values ($1, $2, 'FOREIGN-DROPS', 100) returning id`, [w.businessB, foreignProduct]))[0]?.id;
    const foreignLot = (await w.rows<{ id: string }>(`insert into public.lots (business_id, variant_id, lot_number)
      values ($1, $2, 'B-LOT') returning id`, [w.businessB, foreignVariant]))[0]?.id;
    const res = await w.clients.manager.rpc('post_count', { _store_id: downtown,
      _lines: [{ variant_id: w.f.lotVariant, lot_id: foreignLot, counted: 0 }] });
    expect(res.error?.code).toBe('22023');
    expect(await w.rows('select 1 from public.stock_balances where lot_id = $1', [foreignLot])).toEqual([]);
  });

  it('a manager reads no invitation entry (email, role); the owner does', async () => {
    const owner = await w.clients.owner.from('activity').select('id').eq('entity_type', 'invitation');
    expect((owner.data ?? []).length).toBeGreaterThan(0);
    const manager = await w.clients.manager.from('activity').select('id, after').eq('entity_type', 'invitation');
    expect(manager.error).toBeNull();
    expect(manager.data).toEqual([]);
  });
});
