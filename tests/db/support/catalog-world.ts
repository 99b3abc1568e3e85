/**
 * The people and fixtures of the catalog tests: owner1's Fresh Corner Market (business A, Growth plan, two
 * stores), a manager and a cashier who may use only the Downtown store (joined through real invitations),
 * owner2 (a member of another business), the platform admin and anon. Fixtures are written as the database
 * owner so every test starts from known rows in both stores.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { createTestClient, startStack, type StackHandle } from '../../helpers/stack';
import type { Actor } from './actors';
import { httpActor } from './http-actors';
import { seedUsers } from './seed-ids';

export const downtown = '5a000000-0000-4000-8000-000000000001';
export const riverside = '5a000000-0000-4000-8000-000000000002';
const password = 'catalog-matrix-pw';

export const who = ['anon', 'owner', 'manager', 'cashier', 'other', 'admin'] as const;
export type Who = (typeof who)[number];

export interface Fixtures {
  category: string;
  product: string;
  /** A plain 'each' variant with stock in both stores. */
  variant: string;
  /** A second variant of the same product, without cost (for insert tests). */
  variant2: string;
  /** A lot-tracked product requiring expiry, and its variant and lot. */
  lotProduct: string;
  lotVariant: string;
  lot: string;
  /** Sold by weight. */
  kgVariant: string;
  supplier: string;
  poDowntown: string;
  poRiverside: string;
  poOrdered: string;
  transferToRiverside: string;
}

export interface CatalogWorld {
  stack: StackHandle;
  businessA: string;
  businessB: string;
  clients: Record<Who, SupabaseClient>;
  actors: Record<Who, Actor>;
  userIds: Record<Who, string>;
  f: Fixtures;
  rows<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export async function startCatalogWorld(): Promise<CatalogWorld> {
  const stack = await startStack();
  const rows = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await stack.db.query<T>(sql, params)).rows;
  const clients = {} as Record<Who, SupabaseClient>;
  const actors = {} as Record<Who, Actor>;
  const userIds = {} as Record<Who, string>;

  const signIn = async (name: Who, email: string, pw: string) => {
    const client = createTestClient(stack);
    const { data, error } = await client.auth.signInWithPassword({ email, password: pw });
    if (error || !data.user) throw new Error(`sign-in as ${email} failed: ${error?.message}`);
    clients[name] = client;
    userIds[name] = data.user.id;
    actors[name] = httpActor(name, client, data.user.id);
  };
  await signIn('owner', seedUsers.owner1.email, seedUsers.owner1.password);
  await signIn('other', seedUsers.owner2.email, seedUsers.owner2.password);
  await signIn('admin', seedUsers.admin.email, seedUsers.admin.password);
  clients.anon = createTestClient(stack);
  actors.anon = httpActor('anon', clients.anon, null);

  const [{ id: businessA } = { id: '' }] = await rows<{ id: string }>(
    'select id from public.businesses where owner_id = $1', [seedUsers.owner1.id]);
  const [{ id: businessB } = { id: '' }] = await rows<{ id: string }>(
    'select id from public.businesses where owner_id = $1', [seedUsers.owner2.id]);

  const join = async (name: Who, email: string, role: string) => {
    const service = createTestClient(stack, 'service');
    const created = await service.auth.admin.createUser({
      email, password, email_confirm: true, user_metadata: { full_name: `Member ${name}`, invited: true },
    });
    if (created.error) throw new Error(created.error.message);
    const { data, error } = await clients.owner.rpc('create_invitation', {
      _business_id: businessA, _email: email, _role: role, _all_stores: false, _store_ids: [downtown],
    });
    if (error) throw new Error(error.message);
    await signIn(name, email, password);
    const accepted = await clients[name].rpc('accept_invitation', { _token: (data as { token: string }[])[0]?.token });
    if (accepted.error) throw new Error(accepted.error.message);
  };
  await join('manager', 'manager@catalog.storewise.test', 'manager');
  await join('cashier', 'cashier@catalog.storewise.test', 'cashier');

  const one = async (sql: string, params: unknown[] = []) => (await rows<{ id: string }>(sql, params))[0]?.id ?? '';
  const category = await one(`insert into public.categories (business_id, name) values ($1, 'Matrix aisle') returning id`, [businessA]);
  const product = await one(`insert into public.products (business_id, name, category_id, option1_name)
    values ($1, 'Matrix Tee', $2, 'Size') returning id`, [businessA, category]);
  const variant = await one(`insert into public.variants (business_id, product_id, option1, sku, price)
    values ($1, $2, 'M', 'MTX-TEE-M', 1500) returning id`, [businessA, product]);
  const variant2 = await one(`insert into public.variants (business_id, product_id, option1, sku, price)
    values ($1, $2, 'L', 'MTX-TEE-L', 1500) returning id`, [businessA, product]);
  await rows(`insert into public.variant_costs (variant_id, business_id, cost) values ($1, $2, 600)`, [variant, businessA]);
  await rows(`insert into public.barcodes (business_id, variant_id, code, kind) values ($1, $2, '4006381333931', 'ean13')`,
    [businessA, variant]);
  const lotProduct = await one(`insert into public.products (business_id, name, has_lots, requires_expiry)
    values ($1, 'Matrix Drops', true, true) returning id`, [businessA]);
  const lotVariant = await one(`insert into public.variants (business_id, product_id, sku, price)
    values ($1, $2, 'MTX-DROPS', 900) returning id`, [businessA, lotProduct]);
  const lot = await one(`insert into public.lots (business_id, variant_id, lot_number, expires_on)
    values ($1, $2, 'L-001', current_date + 20) returning id`, [businessA, lotVariant]);
  const kgProduct = await one(`insert into public.products (business_id, name, unit) values ($1, 'Matrix Apples', 'kg') returning id`,
    [businessA]);
  const kgVariant = await one(`insert into public.variants (business_id, product_id, sku, price)
    values ($1, $2, 'MTX-APPLE', 399) returning id`, [businessA, kgProduct]);
  for (const store of [downtown, riverside]) {
    await rows(`insert into public.store_prices (business_id, store_id, variant_id, price) values ($1, $2, $3, 1400)`,
      [businessA, store, variant]);
    await rows(`insert into public.reorder_points (business_id, store_id, variant_id, reorder_point, target_level)
      values ($1, $2, $3, 5, 20)`, [businessA, store, variant]);
    await rows(`select private.apply_movement($1, $2, $3, null, 'opening', 50)`, [businessA, store, variant]);
    await rows(`select private.apply_movement($1, $2, $3, $4, 'opening', 10)`, [businessA, store, lotVariant, lot]);
    await rows(`select private.apply_movement($1, $2, $3, null, 'opening', 12.5)`, [businessA, store, kgVariant]);
  }
  const supplier = await one(`insert into public.suppliers (business_id, name) values ($1, 'Matrix Supply') returning id`, [businessA]);
  const po = async (store: string) => {
    const id = await one(`insert into public.purchase_orders (business_id, store_id, supplier_id) values ($1, $2, $3) returning id`,
      [businessA, store, supplier]);
    await rows(`insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
      values ($1, $2, $3, 10, 700)`, [businessA, id, variant]);
    return id;
  };
  const poDowntown = await po(downtown);
  const poRiverside = await po(riverside);
  const poOrdered = await po(downtown);
  await rows(`update public.purchase_orders set status = 'ordered' where id = $1`, [poOrdered]);
  const transferToRiverside = await one(`insert into public.transfers (business_id, from_store_id, to_store_id)
    values ($1, $2, $3) returning id`, [businessA, downtown, riverside]);
  await rows(`insert into public.transfer_lines (business_id, transfer_id, variant_id, qty_sent) values ($1, $2, $3, 1)`,
    [businessA, transferToRiverside, variant]);

  return {
    stack, businessA, businessB, clients, actors, userIds, rows,
    f: { category, product, variant, variant2, lotProduct, lotVariant, lot, kgVariant, supplier, poDowntown, poRiverside,
      poOrdered, transferToRiverside },
  };
}
