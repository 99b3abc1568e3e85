/**
 * docs/permissions.md is the one table of who may do what in a business. This test reads that Markdown table and
 * checks the database against every cell, over HTTP with supabase-js, as the owner, a manager and a cashier of the
 * Downtown store (catalog world): each area has probes that read or write its table or call its function, and each
 * probe is expected to be allowed exactly when the cell's words grant it. A cell edited without the database (or the
 * database without the cell) fails here, so the two cannot drift (issue 22).
 *
 * Reading a cell: words such as "read", "change", "create", "archive", "sell" grant the probe of that name; a cell
 * that says "their stores" or "their own" limits it to the member's stores (Downtown), otherwise it covers every
 * store; "the same in their stores" is the owner's cell limited to their stores; "none" and "never" grant nothing.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtown, riverside, startCatalogWorld, type CatalogWorld } from './support/catalog-world';

const roles = ['owner', 'manager', 'cashier'] as const;
type Role = (typeof roles)[number];
type Cells = Record<Role, string>;

/** The table of docs/permissions.md: area -> the owner's, manager's and cashier's cells. */
function readTable(): Map<string, Cells> {
  const markdown = readFileSync(new URL('../../docs/permissions.md', import.meta.url), 'utf8');
  const lines = markdown.split('\n');
  const header = lines.findIndex((l) => /^\|\s*Area\s*\|\s*Owner\s*\|\s*Manager\s*\|\s*Cashier\s*\|/.test(l));
  if (header < 0) throw new Error('docs/permissions.md has no | Area | Owner | Manager | Cashier | table');
  const table = new Map<string, Cells>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [area = '', owner = '', manager = '', cashier = ''] = line.split('|').slice(1, -1).map((c) => c.trim());
    table.set(area, { owner, manager, cashier });
  }
  return table;
}

const table = readTable();

/** A cell as a probe reads it: "the same in their stores" is the owner's cell limited to the member's stores. */
function cellOf(area: string, role: Role): string {
  const cells = table.get(area);
  if (!cells) throw new Error(`docs/permissions.md has no row "${area}"`);
  const cell = cells[role];
  return /^the same in their stores/i.test(cell) ? `${cells.owner} (in their stores)` : cell;
}
const grants = (cell: string, word: RegExp) => !/^(none|never)\b/i.test(cell) && word.test(cell);
/** Every store, not only the member's own. */
const everyStore = (cell: string) => !/their stores|their own|in their/i.test(cell);

let w: CatalogWorld;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const registers: Record<string, string> = {};
const shifts: Partial<Record<Role, string>> = {};
/** The owner's open shift in Riverside (the only role that may use that store). */
let riversideShift = '';
const sales: Partial<Record<Role, { id: string; line: string }>> = {};
let oldShop = '';
let probeRegister = '';

type Result = { data: unknown; error: { code?: string; message?: string } | null };
const succeeded = (r: Result) => r.error === null;
const someRows = (r: Result) => r.error === null && Array.isArray(r.data) && r.data.length > 0;
/** For probes that must not change the world: the call got past the role check (any refusal but 42501). */
const pastRoleCheck = (r: Result) => r.error === null || r.error.code !== '42501';

const one = async (sql: string, params: unknown[] = []) => (await w.rows<{ id: string }>(sql, params))[0]?.id ?? '';
const count = async (sql: string, params: unknown[] = []) =>
  Number((await w.rows<{ n: string }>(sql, params))[0]?.n ?? 0);

async function sell(client: SupabaseClient, role: Role, discount = 0): Promise<Result> {
  const res = await client.rpc('post_sale', { _payload: { id: randomUUID(), register_id: registers[`${role}-dt`],
    shift_id: shifts[role] ?? null, lines: [{ variant_id: w.f.variant, qty: 1, ...(discount ? { discount } : {}) }],
    tenders: [{ kind: 'card', amount: 1400 - discount }] } });
  return res as Result;
}

/** A sale the role rang from the offline outbox at a price the catalog never had: flagged for review. */
async function flaggedSale(role: Role): Promise<string> {
  const { data, error } = await w.clients[role].rpc('post_sale', { _payload: { id: randomUUID(), register_id: registers[`${role}-dt`],
    shift_id: shifts[role], offline: true, lines: [{ variant_id: w.f.variant, qty: 1, unit_price: 1 }],
    tenders: [{ kind: 'card', amount: 1 }] } });
  if (error) throw new Error(`flagged sale: ${error.message}`);
  return (data as { id: string }).id;
}

interface Probe {
  name: string;
  /** Whether the role's cell (and, for cross-row rules, another row's) grants it. */
  expected(role: Role): boolean;
  /** True when the database let the role do it. */
  run(client: SupabaseClient, role: Role): Promise<boolean>;
}

const probes: Record<string, Probe[]> = {
  'Business (name, type, email, phone)': [
    { name: 'read the business', expected: (r) => grants(cellOf('Business (name, type, email, phone)', r), /\bread\b/),
      run: async (c) => someRows(await c.from('businesses').select('id').eq('id', w.businessA)) },
    { name: 'change its phone', expected: (r) => grants(cellOf('Business (name, type, email, phone)', r), /\bchange\b/),
      run: async (c) => someRows(await c.from('businesses').update({ phone: '+1 555 010 2222' }).eq('id', w.businessA)
        .select('id')) },
  ],
  'Plan and usage': [
    { name: 'read the plan and usage', expected: (r) => grants(cellOf('Plan and usage', r), /\bread\b/),
      run: async (c) => {
        const res = await c.rpc('my_workspaces');
        return (res.data as { id: string; plan: string }[] | null ?? []).some((b) => b.id === w.businessA && !!b.plan);
      } },
    // A plan is chosen through the payment provider (billing-checkout, issue 24): the amount due of a change to Pro
    // is what only the owner may ask for.
    { name: 'choose the business\'s plan', expected: (r) => grants(cellOf('Plan and usage', r), /choose a plan/),
      run: async (c) => {
        const { data, error } = await c.functions.invoke('billing-checkout', { body: { plan: 'Pro', preview: true } });
        return !error && (data as { kind?: string } | null)?.kind !== undefined;
      } },
  ],
  Stores: [
    { name: 'read their store', expected: (r) => grants(cellOf('Stores', r), /\bread\b/),
      run: async (c) => someRows(await c.from('stores').select('id').eq('id', downtown)) },
    { name: 'read another store', expected: (r) => grants(cellOf('Stores', r), /\bread\b/) && everyStore(cellOf('Stores', r)),
      run: async (c) => someRows(await c.from('stores').select('id').eq('id', riverside)) },
    { name: 'create a store', expected: (r) => grants(cellOf('Stores', r), /\bcreate\b/),
      run: async (c, role) => {
        const res = await c.from('stores').insert({ business_id: w.businessA, name: `Probe ${role}` }).select('id');
        const id = (res.data as { id: string }[] | null)?.[0]?.id;
        if (id) await w.rows('update public.stores set archived_at = now() where id = $1', [id]);
        return !!id;
      } },
    { name: 'change their store\'s settings', expected: (r) => grants(cellOf('Stores', r), /\bchange\b/),
      run: async (c) => someRows(await c.from('stores').update({ receipt_footer: 'Thank you' }).eq('id', downtown).select('id')) },
    { name: 'change another store', expected: (r) => grants(cellOf('Stores', r), /\bchange\b/) && everyStore(cellOf('Stores', r)),
      run: async (c) => someRows(await c.from('stores').update({ receipt_footer: 'Thanks' }).eq('id', riverside).select('id')) },
    { name: 'archive a store', expected: (r) => grants(cellOf('Stores', r), /\barchive\b/),
      run: async (c) => {
        const id = await one(`insert into public.stores (business_id, name) values ($1, 'To archive') returning id`, [w.businessA]);
        await w.rows(`insert into public.member_store_access (business_id, user_id, store_id)
          select $1, m.user_id, $2 from public.business_members m where m.business_id = $1 and m.role <> 'owner'`, [w.businessA, id]);
        const res = await c.from('stores').update({ archived_at: new Date().toISOString() }).eq('id', id).select('id');
        await w.rows('update public.stores set archived_at = now() where id = $1', [id]);
        return someRows(res);
      } },
    { name: 'restore a store', expected: (r) => grants(cellOf('Stores', r), /\brestore\b/),
      run: async (c) => {
        const res = await c.from('stores').update({ archived_at: null }).eq('id', oldShop).select('id');
        await w.rows('update public.stores set archived_at = now() where id = $1', [oldShop]);
        return someRows(res);
      } },
  ],
  Registers: [
    { name: 'read in their store', expected: (r) => grants(cellOf('Registers', r), /\bread\b/),
      run: async (c) => someRows(await c.from('registers').select('id').eq('store_id', downtown)) },
    { name: 'create in their store', expected: (r) => grants(cellOf('Registers', r), /\bcreate\b/),
      run: async (c, role) => someRows(await c.from('registers').insert({ business_id: w.businessA, store_id: downtown,
        name: `Probe ${role}`, receipt_prefix: `NEW${role[0]?.toUpperCase()}` }).select('id')) },
    { name: 'rename in their store', expected: (r) => grants(cellOf('Registers', r), /\brename\b/),
      run: async (c, role) => someRows(await c.from('registers').update({ name: `Renamed by ${role}` }).eq('id', probeRegister)
        .select('id')) },
    { name: 'archive in their store', expected: (r) => grants(cellOf('Registers', r), /\barchive\b/),
      run: async (c) => {
        const res = await c.from('registers').update({ archived_at: new Date().toISOString() }).eq('id', probeRegister).select('id');
        await w.rows('update public.registers set archived_at = null where id = $1', [probeRegister]);
        return someRows(res);
      } },
    { name: 'create in another store', expected: (r) => grants(cellOf('Registers', r), /\bcreate\b/)
      && everyStore(cellOf('Registers', r)),
      run: async (c, role) => someRows(await c.from('registers').insert({ business_id: w.businessA, store_id: riverside,
        name: `Probe ${role}`, receipt_prefix: `RIV${role[0]?.toUpperCase()}` }).select('id')) },
  ],
  Team: [
    { name: 'read the whole team', expected: (r) => grants(cellOf('Team', r), /^read(?! their own)/),
      run: async (c) => {
        const res = await c.from('business_members').select('user_id').eq('business_id', w.businessA);
        const all = await count('select count(*) as n from public.business_members where business_id = $1', [w.businessA]);
        return (res.data ?? []).length === all;
      } },
    { name: 'read their own membership', expected: (r) => grants(cellOf('Team', r), /\bread\b/),
      run: async (c, role) => someRows(await c.from('business_members').select('user_id').eq('business_id', w.businessA)
        .eq('user_id', w.userIds[role])) },
    { name: 'invite', expected: (r) => grants(cellOf('Team', r), /\binvite\b/),
      run: async (c, role) => succeeded(await c.rpc('create_invitation', { _business_id: w.businessA,
        _email: `team-${role}@probe.test`, _role: 'cashier', _all_stores: false, _store_ids: [downtown] }) as Result) },
    { name: 'change roles and store access', expected: (r) => grants(cellOf('Team', r), /change roles/),
      // The cashier's own role and store again: allowed callers change nothing, refused ones get 42501.
      run: async (c) => succeeded(await c.rpc('set_member_role', { _business_id: w.businessA, _user_id: w.userIds.cashier,
        _role: 'cashier', _all_stores: false, _store_ids: [downtown] }) as Result) },
    { name: 'remove a member', expected: (r) => grants(cellOf('Team', r), /\bremove\b/),
      run: async (c) => pastRoleCheck(await c.rpc('remove_member', { _business_id: w.businessA, _user_id: randomUUID() }) as Result) },
    { name: 'revoke an invitation', expected: (r) => grants(cellOf('Team', r), /revoke invitations/),
      run: async (c, role) => {
        const id = await one(`insert into public.invitations (business_id, email, role) values ($1, $2, 'cashier') returning id`,
          [w.businessA, `revoke-team-${role}@probe.test`]);
        return succeeded(await c.rpc('revoke_invitation', { _invitation_id: id }) as Result);
      } },
    { name: 'transfer ownership', expected: (r) => grants(cellOf('Team', r), /transfer ownership/),
      // To someone who is not a member: the owner passes the role check and is told so; nothing changes hands.
      run: async (c) => pastRoleCheck(await c.rpc('transfer_ownership', { _business_id: w.businessA, _new_owner: randomUUID() }) as Result) },
  ],
  Invitations: [
    { name: 'read', expected: (r) => grants(cellOf('Invitations', r), /\bread\b/),
      run: async (c) => someRows(await c.from('invitations').select('id').eq('business_id', w.businessA)) },
    { name: 'create', expected: (r) => grants(cellOf('Invitations', r), /\bcreate\b/),
      run: async (c, role) => succeeded(await c.rpc('create_invitation', { _business_id: w.businessA,
        _email: `inv-${role}@probe.test`, _role: 'manager', _all_stores: true }) as Result) },
    { name: 'revoke', expected: (r) => grants(cellOf('Invitations', r), /\brevoke\b/),
      run: async (c, role) => {
        const id = await one(`insert into public.invitations (business_id, email, role) values ($1, $2, 'cashier') returning id`,
          [w.businessA, `revoke-${role}@probe.test`]);
        return succeeded(await c.rpc('revoke_invitation', { _invitation_id: id }) as Result);
      } },
  ],
  'Activity (audit trail)': [
    { name: 'read the business\'s entries', expected: (r) => grants(cellOf('Activity (audit trail)', r), /\bread\b/),
      run: async (c) => someRows(await c.from('activity').select('id').eq('business_id', w.businessA).is('store_id', null)
        .neq('entity_type', 'invitation').limit(1)) },
    { name: 'read their store\'s entries', expected: (r) => grants(cellOf('Activity (audit trail)', r), /\bread\b/),
      run: async (c) => someRows(await c.from('activity').select('id').eq('store_id', downtown).limit(1)) },
    { name: 'read another store\'s entries', expected: (r) => grants(cellOf('Activity (audit trail)', r), /read all/),
      run: async (c) => someRows(await c.from('activity').select('id').eq('store_id', riverside).limit(1)) },
    { name: 'read invitation entries (as the Invitations row allows)',
      expected: (r) => grants(cellOf('Activity (audit trail)', r), /\bread\b/) && grants(cellOf('Invitations', r), /\bread\b/),
      run: async (c) => someRows(await c.from('activity').select('id').eq('business_id', w.businessA)
        .eq('entity_type', 'invitation').limit(1)) },
  ],
  'Catalog (products, prices)': [
    { name: 'read products', expected: (r) => grants(cellOf('Catalog (products, prices)', r), /\bread\b/),
      run: async (c) => someRows(await c.from('products').select('id').eq('id', w.f.product)) },
    { name: 'read sell prices', expected: (r) => grants(cellOf('Catalog (products, prices)', r), /\bread\b/),
      run: async (c) => someRows(await c.from('store_prices').select('price').eq('store_id', downtown)
        .eq('variant_id', w.f.variant)) },
    { name: 'change a product', expected: (r) => grants(cellOf('Catalog (products, prices)', r), /\bchange\b/),
      run: async (c) => someRows(await c.from('products').update({ description: 'Soft cotton' }).eq('id', w.f.product)
        .select('id')) },
    { name: 'change a sell price', expected: (r) => grants(cellOf('Catalog (products, prices)', r), /\bchange\b/),
      run: async (c) => someRows(await c.from('store_prices').update({ price: 1400 }).eq('store_id', downtown)
        .eq('variant_id', w.f.variant).select('price')) },
  ],
  Stock: [
    { name: 'read in their store', expected: (r) => grants(cellOf('Stock', r), /\bread\b/),
      run: async (c) => someRows(await c.from('stock_balances').select('qty').eq('store_id', downtown).limit(1)) },
    { name: 'read in another store', expected: (r) => grants(cellOf('Stock', r), /\bread\b/) && everyStore(cellOf('Stock', r)),
      run: async (c) => someRows(await c.from('stock_balances').select('qty').eq('store_id', riverside).limit(1)) },
    { name: 'receive', expected: (r) => grants(cellOf('Stock', r), /\breceive\b/),
      run: async (c) => succeeded(await c.rpc('receive_stock', { _store_id: downtown, _variant_id: w.f.variant, _qty: 1,
        _unit_cost: 600 }) as Result) },
    { name: 'adjust', expected: (r) => grants(cellOf('Stock', r), /\badjust\b/),
      run: async (c) => succeeded(await c.rpc('adjust_stock', { _store_id: downtown, _variant_id: w.f.variant, _qty: -1,
        _reason: 'damaged' }) as Result) },
    { name: 'count', expected: (r) => grants(cellOf('Stock', r), /\bcount\b/),
      run: async (c) => {
        const onHand = await count(`select coalesce(sum(qty), 0) as n from public.stock_balances where store_id = $1
          and variant_id = $2`, [downtown, w.f.variant]);
        return succeeded(await c.rpc('post_count', { _store_id: downtown,
          _lines: [{ variant_id: w.f.variant, counted: onHand }] }) as Result);
      } },
    { name: 'transfer', expected: (r) => grants(cellOf('Stock', r), /\btransfer\b/),
      run: async (c) => succeeded(await c.rpc('send_transfer', { _from_store_id: downtown, _to_store_id: riverside,
        _lines: [{ variant_id: w.f.variant, qty: 1 }] }) as Result) },
    { name: 'adjust in another store', expected: (r) => grants(cellOf('Stock', r), /\badjust\b/) && everyStore(cellOf('Stock', r)),
      run: async (c) => succeeded(await c.rpc('adjust_stock', { _store_id: riverside, _variant_id: w.f.variant, _qty: -1,
        _reason: 'damaged' }) as Result) },
  ],
  Sales: [
    { name: 'sell', expected: (r) => grants(cellOf('Sales', r), /\bsell\b/),
      run: async (c, role) => {
        const res = await sell(c, role);
        const sale = res.data as { id: string; lines: { id: string }[] } | null;
        if (sale?.id) sales[role] = { id: sale.id, line: sale.lines[0]?.id ?? '' };
        return succeeded(res);
      } },
    { name: 'read their own shift\'s sales', expected: (r) => grants(cellOf('Sales', r), /\bread\b/),
      run: async (c, role) => someRows(await c.from('sales').select('id').eq('id', sales[role]?.id ?? randomUUID())) },
    { name: 'read other people\'s sales in their store', expected: (r) => grants(cellOf('Sales', r), /read all|read their stores/),
      run: async (c, role) => someRows(await c.from('sales').select('id').eq('store_id', downtown)
        .neq('cashier_id', w.userIds[role]).limit(1)) },
    { name: 'read another store\'s sales', expected: (r) => grants(cellOf('Sales', r), /read all/),
      run: async (c) => someRows(await c.from('sales').select('id').eq('store_id', riverside).limit(1)) },
  ],
  Refunds: [
    { name: 'refund in their store', expected: (r) => grants(cellOf('Refunds', r), /./) && !/^with a manager's approval/.test(cellOf('Refunds', r)),
      run: async (c, role) => {
        const mine = sales[role] ?? sales.owner;
        return succeeded(await c.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: mine?.id,
          register_id: registers[`${role}-dt`], shift_id: shifts[role] ?? null,
          lines: [{ sale_line_id: mine?.line, qty: 1, disposition: 'restock' }] } }) as Result);
      } },
    { name: 'refund offline without a manager, in their own shift, within the limit', expected: (r) => grants(cellOf('Refunds', r), /./),
      run: async (c, role) => {
        const sold = await sell(c, role);
        const sale = sold.data as { id: string; lines: { id: string }[] } | null;
        return succeeded(await c.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: sale?.id, shift_id: shifts[role] ?? null,
          offline: true, lines: [{ sale_line_id: sale?.lines[0]?.id, qty: 1, disposition: 'restock' }] } }) as Result);
      } },
    { name: 'refund in another store', expected: (r) => grants(cellOf('Refunds', r), /^all\b/),
      run: async (c, role) => {
        const [line] = await w.rows<{ sale_id: string; id: string }>(`select l.sale_id, l.id from public.sale_lines l
          join public.sales s on s.id = l.sale_id where s.store_id = $1 and l.qty >= 1
           and not exists (select 1 from public.refund_lines rl where rl.sale_line_id = l.id) order by s.occurred_at desc limit 1`,
        [riverside]);
        return succeeded(await c.rpc('post_refund', { _payload: { id: randomUUID(), sale_id: line?.sale_id,
          register_id: role === 'owner' ? registers['owner-rs'] : registers[`${role}-dt`],
          shift_id: role === 'owner' ? riversideShift : shifts[role] ?? null,
          lines: [{ sale_line_id: line?.id, qty: 1, disposition: 'restock' }] } }) as Result);
      } },
  ],
  'Shifts and cash in/out': [
    { name: 'read their own shift', expected: (r) => grants(cellOf('Shifts and cash in/out', r), /./),
      run: async (c, role) => someRows(await c.from('shifts').select('id').eq('id', shifts[role] ?? randomUUID())) },
    { name: 'read another person\'s shift in their store',
      expected: (r) => grants(cellOf('Shifts and cash in/out', r), /^all|in their stores/),
      run: async (c, role) => someRows(await c.from('shifts').select('id').eq('store_id', downtown)
        .neq('cashier_id', w.userIds[role]).limit(1)) },
    { name: 'move cash in another person\'s shift', expected: (r) => grants(cellOf('Shifts and cash in/out', r), /^all|in their stores/),
      run: async (c, role) => succeeded(await c.rpc('cash_in_out', { _id: randomUUID(),
        _shift_id: role === 'owner' ? shifts.manager : shifts.owner, _kind: 'in', _amount: 1, _reason: 'Probe', _at: null }) as Result) },
  ],
  'Review flagged sales, refunds and shifts': [
    { name: 'review a flagged sale another person rang', expected: (r) => grants(cellOf('Review flagged sales, refunds and shifts', r), /./),
      run: async (c, role) => {
        const author: Role = role === 'cashier' ? 'manager' : 'cashier';
        const id = await flaggedSale(author);
        return succeeded(await c.rpc('review_sale', { _sale_id: id, _note: 'Probe' }) as Result);
      } },
    { name: 'review a flagged sale they rang themselves',
      expected: (r) => grants(cellOf('Review flagged sales, refunds and shifts', r), /./)
        && !/not what they rang themselves/.test(cellOf('Review flagged sales, refunds and shifts', r)),
      run: async (c, role) => succeeded(await c.rpc('review_sale', { _sale_id: await flaggedSale(role), _note: 'Probe' }) as Result) },
  ],
  Discounts: [
    { name: 'give 5% off a line', expected: (r) => grants(cellOf('Discounts', r), /\bgive\b/),
      run: async (c, role) => succeeded(await sell(c, role, 70)) },
    { name: 'give 60% off a line without approval', expected: (r) => grants(cellOf('Discounts', r), /\bgive any\b/),
      run: async (c, role) => succeeded(await sell(c, role, 840)) },
  ],
  'Cost prices and profit': [
    { name: 'read cost prices', expected: (r) => grants(cellOf('Cost prices and profit', r), /\bread\b/),
      run: async (c) => someRows(await c.from('variant_costs').select('cost').eq('variant_id', w.f.variant)) },
    { name: 'change a cost price', expected: (r) => grants(cellOf('Cost prices and profit', r), /\bchange\b/),
      run: async (c) => {
        const [{ cost } = { cost: '0' }] = await w.rows<{ cost: string }>(
          'select cost::text from public.variant_costs where variant_id = $1', [w.f.variant]);
        return someRows(await c.from('variant_costs').update({ cost: Number(cost) }).eq('variant_id', w.f.variant)
          .select('cost'));
      } },
    { name: 'read profit', expected: (r) => grants(cellOf('Cost prices and profit', r), /\bread\b/),
      run: async (c) => succeeded(await c.rpc('report_profit', { _business_id: w.businessA, _from: day(-60), _to: day(1),
        _store_id: downtown }) as Result) },
  ],
  'Exchange rates (foreign cash)': [
    { name: 'read the rates', expected: (r) => grants(cellOf('Exchange rates (foreign cash)', r), /\bread\b/),
      run: async (c) => {
        await w.rows(`insert into public.exchange_rates (business_id, currency, base_currency, rate) values ($1, 'CAD', 'USD', 0.73)`,
          [w.businessA]);
        return someRows(await c.from('exchange_rates').select('id').eq('business_id', w.businessA));
      } },
    { name: 'set a rate', expected: (r) => grants(cellOf('Exchange rates (foreign cash)', r), /\bset\b/),
      run: async (c) => succeeded(await c.rpc('set_exchange_rate', { _business_id: w.businessA, _currency: 'EUR',
        _base_currency: 'USD', _rate: 1.08 }) as Result) },
  ],
  Reports: [
    { name: 'their store', expected: (r) => grants(cellOf('Reports', r), /./),
      run: async (c) => someRows(await c.rpc('report_sales', { _business_id: w.businessA, _from: day(-60), _to: day(1),
        _store_id: downtown }) as Result) },
    { name: 'another store', expected: (r) => grants(cellOf('Reports', r), /all stores/),
      run: async (c) => someRows(await c.rpc('report_sales', { _business_id: w.businessA, _from: day(-60), _to: day(1),
        _store_id: riverside }) as Result) },
  ],
};

beforeAll(async () => {
  w = await startCatalogWorld();
  // Tax included in the price: a line's total is its price less its discount, so the probes' tenders add up.
  await w.rows('update public.stores set tax_inclusive = true where id in ($1, $2)', [downtown, riverside]);
  for (const role of roles) {
    registers[`${role}-dt`] = await one(`insert into public.registers (business_id, store_id, name, receipt_prefix)
      values ($1, $2, $3, $4) returning id`, [w.businessA, downtown, `Till ${role}`, `T${role.slice(0, 3).toUpperCase()}`]);
    const opened = await w.clients[role].rpc('open_shift', { _register_id: registers[`${role}-dt`], _opening_float: 0 });
    if (opened.error) throw new Error(`${role} could not open a shift: ${opened.error.message}`);
    shifts[role] = (opened.data as { id: string }).id;
  }
  registers['owner-rs'] = await one(`insert into public.registers (business_id, store_id, name, receipt_prefix)
    values ($1, $2, 'Till owner', 'TOWNRS') returning id`, [w.businessA, riverside]);
  const opened = await w.clients.owner.rpc('open_shift', { _register_id: registers['owner-rs'], _opening_float: 0 });
  if (opened.error) throw new Error(opened.error.message);
  riversideShift = (opened.data as { id: string }).id;
  // Someone else's sale in Downtown for every role's "other people's sales" probe.
  const managerSale = await sell(w.clients.manager, 'manager');
  if (managerSale.error) throw new Error(`the manager could not sell: ${managerSale.error.message ?? ''}`);
  probeRegister = await one(`insert into public.registers (business_id, store_id, name, receipt_prefix)
    values ($1, $2, 'Probe till', 'PROBE') returning id`, [w.businessA, downtown]);
  // An archived store the manager and cashier may use, for the restore probe.
  oldShop = await one(`insert into public.stores (business_id, name) values ($1, 'Old shop') returning id`, [w.businessA]);
  await w.rows(`insert into public.member_store_access (business_id, user_id, store_id) values ($1, $2, $4), ($1, $3, $4)`,
    [w.businessA, w.userIds.manager, w.userIds.cashier, oldShop]);
  await w.rows('update public.stores set archived_at = now() where id = $1', [oldShop]);
}, 600_000);

afterAll(async () => {
  await w?.stack.stop();
}, 120_000);

describe('docs/permissions.md', () => {
  it('has a cell for every role in every area, and every area has probes here (and no probe lacks its area)', () => {
    expect([...table.keys()].sort()).toEqual(Object.keys(probes).sort());
    for (const [area, cells] of table) {
      for (const role of roles) expect(cells[role], `${area} / ${role}`).not.toBe('');
    }
  });
});

describe.each([...table.keys()])('%s', (area) => {
  it.each(roles)('the database does for the %s what the cell says', async (role) => {
    const mismatches: string[] = [];
    for (const probe of probes[area] ?? []) {
      const expected = probe.expected(role);
      const actual = await probe.run(w.clients[role], role);
      if (actual !== expected) {
        mismatches.push(`${probe.name}: the cell "${table.get(area)?.[role]}" says ${expected ? 'allowed' : 'refused'}, ` +
          `the database ${actual ? 'allowed' : 'refused'}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
