/**
 * Read-only maintenance enforced (issue 30, 20261202100000_read_only_mode.sql, docs/adr/0280), over HTTP with
 * supabase-js: every business table has the statement trigger or a written reason not to (a new table without
 * either fails here); while read-only is on, writes by members through the table API and through the money and
 * stock functions are refused with PT503 (HTTP 503) and change nothing, reads keep working, support stays
 * reachable, and the admin turns it off; sales the real outbox queued meanwhile wait ("retry later", never
 * refused) and post exactly once afterwards.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, openPosDb, pendingEntries, refusedEntries, syncOutbox } from '../../shared/features/pos/outbox';
import { sendSale, sendSales } from '../../shared/features/pos/pos-api';
import { removeLogo, uploadLogo } from '../../shared/lib/business-logo';
import { isReadOnlyRefusal } from '../../shared/lib/read-only-refusal';
import type { StorewiseClient } from '../../shared/lib/supabase-client';
import { startCatalogWorld, type CatalogWorld } from './support/catalog-world';

/**
 * Tables a signed-in user may still write while read-only is on, each with why. Every other table in public and
 * private must carry the read_only_guard trigger.
 */
const exempt: Record<string, string> = {
  'public.login_activity': 'signing in records it (an admin must sign in to turn read-only off)',
  'public.active_sessions': 'signing in records it',
  'private.account_security_events': 'two-factor sign-in records it',
  'private.mfa_recovery_codes': 'a recovery code is used up when signing in with it',
  'private.user_roles': 'the platform\'s own: who is an admin',
  'private.platform_settings': 'the platform\'s own: the admin turns read-only off here',
  'private.platform_setting_changes': 'the settings trail of that change',
  'private.legal_versions': 'the platform\'s own legal pages',
  'private.admin_totals': 'platform counters, also kept by support tickets',
  'public.email_outbox': 'a mail queue: sending mail changes no business data (and the admin\'s test email)',
  'private.email_sends': 'the mail caps of that queue',
  'public.support_tickets': 'support stays reachable during maintenance',
  'public.ticket_replies': 'support stays reachable during maintenance',
  'private.support_ticket_search': 'kept by support tickets',
  'private.support_queue_counts': 'kept by support tickets',
  'public.notifications': 'support answers notify the ticket owner; marking read is per person',
  'public.activity': 'append-only trail written only beside other writes (refused on their own tables) and by support tickets',
  'public.desktop_heartbeats': 'store PCs keep reporting their version and state',
  'private.staff_pins': 'a wrong PIN still counts toward the lockout while the counter keeps selling',
  'public.till_switches': 'who stands at the till: the register keeps selling during maintenance, its queued sales name them',
  'public.register_sync_states': 'the registers\' outbox reports: what waits to sync is what a manager needs to see then',
  'private.business_exports': 'an export only reads the business; this is its job row',
  'private.pos_catalog_packs': 'the register\'s packed catalog, a cache its loads cut and rebuild (ADR 0445): registers keep loading',
  'private.pos_catalog_blocks': 'the register\'s packed catalog, a cache its loads cut and rebuild (ADR 0445): registers keep loading',
};

let w: CatalogWorld;
let register = '';
let shift = '';

const setReadOnly = async (on: boolean, message = '') => {
  const { error } = await w.clients.admin.rpc('admin_update_platform_settings', { _changes: { read_only: on, read_only_message: message } });
  if (error) throw new Error(error.message);
};

/** Two of the Downtown tee at its store price (1400), 8.875 % tax on top: 2800 + 249 = 3049. */
const sale = () => ({
  id: randomUUID(), register_id: register, shift_id: shift,
  lines: [{ variant_id: w.f.variant, qty: 2, unit_price: 1400 }],
  tenders: [{ kind: 'cash', amount: 3049, tendered: 5000 }],
});

const count = async (sql: string, params: unknown[] = []) =>
  Number(Object.values((await w.rows<Record<string, unknown>>(sql, params))[0] ?? {})[0]);

beforeAll(async () => {
  w = await startCatalogWorld();
  register = (await w.rows<{ id: string }>(`select id from public.registers where receipt_prefix = 'DT1'`))[0]!.id;
  const { data, error } = await w.clients.cashier.rpc('open_shift', { _register_id: register, _opening_float: 10000 });
  if (error) throw new Error(error.message);
  shift = (data as { id: string }).id;
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('read-only mode: which tables', () => {
  it('every table in public and private has the guard or a reason in the exemption list, and no exempt table has it', async () => {
    const tables = await w.rows<{ name: string; guarded: boolean }>(`
      select n.nspname || '.' || c.relname as name,
             exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'read_only_guard' and not t.tgisinternal
                        and (t.tgtype & 1) = 0 and (t.tgtype & 2) = 2 and (t.tgtype & 28) = 28) as guarded
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and not c.relispartition
       order by 1`);
    expect(tables.length).toBeGreaterThan(60);
    const unguarded = tables.filter((t) => !t.guarded && !(t.name in exempt)).map((t) => t.name);
    expect(unguarded, 'tables a member could write in read-only mode: add the trigger (see the migration) or a reason here').toEqual([]);
    const guardedExempt = tables.filter((t) => t.guarded && t.name in exempt).map((t) => t.name);
    expect(guardedExempt).toEqual([]);
    const names = new Set(tables.map((t) => t.name));
    expect(Object.keys(exempt).filter((name) => !names.has(name)), 'exemptions for tables that no longer exist').toEqual([]);
  });
});

describe('read-only mode over HTTP', () => {
  it('refuses members\' writes (table API and functions) with PT503, keeps reads, support and the admin\'s settings', async () => {
    const before = await count('select count(*) from public.sales');
    await setReadOnly(true, 'Database upgrade until 23:00 UTC');
    try {
      const { owner, manager, cashier } = w.clients;
      const refusals = [
        await owner.from('categories').insert({ business_id: w.businessA, name: 'Read-only shelf' }),
        await owner.from('products').update({ name: 'Renamed while read-only' }).eq('id', w.f.product),
        await manager.from('suppliers').delete().eq('id', w.f.supplier),
        await cashier.rpc('post_sale', { _payload: sale() }),
        await cashier.rpc('post_sales', { _payloads: [sale(), sale()] }),
        await cashier.rpc('create_customer', { _id: randomUUID(), _business_id: w.businessA, _name: 'Read Only', _phone: null, _email: null }),
        await cashier.rpc('cash_in_out', { _id: randomUUID(), _shift_id: shift, _kind: 'in', _amount: 500, _reason: 'float', _at: new Date().toISOString() }),
        await manager.rpc('adjust_stock', { _store_id: (await w.rows<{ id: string }>('select id from public.stores where business_id = $1 limit 1', [w.businessA]))[0]!.id,
          _variant_id: w.f.variant, _qty: 5, _reason: 'found' }),
        await owner.from('stores').update({ receipt_footer: 'Thanks' }).eq('business_id', w.businessA),
      ];
      for (const [i, r] of refusals.entries()) {
        expect(r.error?.code, `write ${i}: ${r.error?.message}`).toBe('PT503');
        expect(r.status, `write ${i}`).toBe(503);
        expect(r.error?.message).toBe('Storewise is in read-only maintenance: changes wait until it ends.');
        expect(r.error?.details).toBe('Database upgrade until 23:00 UTC');
        expect(isReadOnlyRefusal(r.error)).toBe(true);
      }
      expect(await count('select count(*) from public.sales')).toBe(before);
      expect(await count(`select count(*) from public.categories where name = 'Read-only shelf'`)).toBe(0);
      expect(await count(`select count(*) from public.products where name = 'Renamed while read-only'`)).toBe(0);
      expect(await count('select count(*) from public.suppliers where id = $1', [w.f.supplier])).toBe(1);

      // Reads keep working: tables, reports, the shift's figures.
      const products = await owner.from('products').select('id, name').eq('id', w.f.product);
      expect(products.error).toBeNull();
      expect(products.data).toHaveLength(1);
      const x = await cashier.rpc('x_report', { _shift_id: shift });
      expect(x.error).toBeNull();

      // Support stays reachable.
      const ticket = await owner.from('support_tickets').insert({ user_id: w.userIds.owner, subject: 'Read-only question',
        message: 'When does the maintenance end?', status: 'open', priority: 'medium' }).select('id').single();
      expect(ticket.error).toBeNull();

      // The admin still changes platform settings (and nothing else is needed to turn it off: below).
      const banner = await w.clients.admin.rpc('admin_update_platform_settings', { _changes: { status_line: 'Upgrading the database' } });
      expect(banner.error).toBeNull();
    } finally {
      await setReadOnly(false);
    }
    const after = await w.clients.owner.from('categories').insert({ business_id: w.businessA, name: 'After read-only' }).select('id');
    expect(after.error).toBeNull();
  }, 120_000);

  it('Storage: a logo or a product picture is neither added nor removed while read-only, and the screens say why', async () => {
    const owner = w.clients.owner as unknown as StorewiseClient;
    // The smallest PNG: Storage checks the first bytes against the declared type.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const logo = new File([png], 'logo.png', { type: 'image/png' });
    const objects = (bucket: string, name: string) =>
      count('select count(*) from storage.objects where bucket_id = $1 and name = $2', [bucket, name]);
    const sentence = 'Storewise is in read-only maintenance: changes wait until it ends. Moving the files';
    await setReadOnly(true, 'Moving the files');
    try {
      await expect(uploadLogo(owner, w.businessA, logo)).rejects.toThrow(sentence);
      const picture = await owner.storage.from('product-images').upload(`${w.businessA}/${w.f.product}/${randomUUID()}.png`, png, { contentType: 'image/png' });
      expect((picture.error as { statusCode?: string } | null)?.statusCode).toBe('403');
      expect(await count(`select count(*) from storage.objects where bucket_id = 'product-images' and name like $1`, [`${w.businessA}/%`])).toBe(0);
    } finally {
      await setReadOnly(false);
    }
    expect(await objects('business-logos', `${w.businessA}/logo`)).toBe(0);
    await uploadLogo(owner, w.businessA, logo);
    expect(await objects('business-logos', `${w.businessA}/logo`)).toBe(1);

    await setReadOnly(true, 'Moving the files');
    try {
      await expect(removeLogo(owner, w.businessA)).rejects.toThrow(sentence);
    } finally {
      await setReadOnly(false);
    }
    expect(await objects('business-logos', `${w.businessA}/logo`)).toBe(1);
    await removeLogo(owner, w.businessA);
    expect(await objects('business-logos', `${w.businessA}/logo`)).toBe(0);
    // Outside maintenance a refusal keeps Storage's own words (a cashier is no owner).
    await expect(uploadLogo(w.clients.cashier as unknown as StorewiseClient, w.businessA, logo)).rejects.toThrow('new row violates row-level security policy');
  }, 120_000);

  it('the register\'s outbox keeps sales queued in read-only mode as "retry later" and posts each exactly once after', async () => {
    const client = w.clients.cashier as unknown as StorewiseClient;
    const db = await openPosDb(`read-only-${randomUUID()}`);
    const payloads = [sale(), sale(), sale()];
    for (const p of payloads) await enqueue(db, 'sale', p);
    const sync = () => syncOutbox(db, (e) => sendSale(client, e), undefined, { sendBatch: (es) => sendSales(client, es) });

    await setReadOnly(true, 'Moving to a bigger server');
    let held;
    try {
      held = await sync();
      // A single sale too (the path a batch falls back to).
      const single = await sendSale(client, (await pendingEntries(db))[0]!);
      expect(single).toMatchObject({ status: 'retry', reason: 'read_only' });
    } finally {
      await setReadOnly(false);
    }
    expect(held).toMatchObject({ sent: 0, waiting: 3, rejected: 0 });
    expect(held.paused).toBe('Storewise is in read-only maintenance: changes wait until it ends. Moving to a bigger server');
    expect(await refusedEntries(db)).toEqual([]);
    const ids = payloads.map((p) => p.id);
    expect(await count('select count(*) from public.sales where id = any($1::uuid[])', [ids])).toBe(0);

    const done = await sync();
    expect(done).toMatchObject({ sent: 3, waiting: 0, rejected: 0 });
    expect(done.paused).toBeUndefined();
    // And again: nothing left, nothing posted twice.
    expect(await sync()).toMatchObject({ sent: 0, waiting: 0 });
    expect(await count('select count(*) from public.sales where id = any($1::uuid[])', [ids])).toBe(3);
    expect(await count('select count(*) from public.stock_movements where reference_id = any($1::uuid[])', [ids])).toBe(3);
    db.close();
  }, 120_000);
});
