/**
 * supabase/seed.sql produces what its header promises: the demo accounts (with working passwords and the right
 * roles) and the admin figures the README, the e2e tests and the admin panel rely on.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../../supabase/local/db/open-db';
import { seedFile } from '../../supabase/local/db/paths';
import { addTender, type Tender } from '../../shared/features/pos/cart';
import { addForeignTender, tenderPayload } from '../../shared/features/pos/foreign-tender';
import { gridCells } from '../../shared/lib/size-grid';
import { seedUsers } from './support/seed-ids';

let db: OpenedDb;

interface DemoAccount {
  email: string;
  password: string;
  role: string;
  description: string;
}

/** The `-- demo-account: email | password | role | description` lines of the seed's header. */
function demoAccounts(): DemoAccount[] {
  return readFileSync(seedFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('-- demo-account:'))
    .map((line) => {
      const [email = '', password = '', role = '', description = ''] = line
        .slice('-- demo-account:'.length)
        .split('|')
        .map((part) => part.trim());
      return { email, password, role, description };
    });
}

beforeAll(async () => {
  db = await openDb({ memory: true });
});

afterAll(async () => {
  await db?.close();
});

describe('supabase/seed.sql', () => {
  it('lists the eight demo accounts in its header', () => {
    expect(demoAccounts().map(({ email, password, role }) => ({ email, password, role }))).toEqual([
      { email: seedUsers.admin.email, password: seedUsers.admin.password, role: 'admin' },
      { email: seedUsers.owner1.email, password: seedUsers.owner1.password, role: 'owner' },
      { email: seedUsers.owner2.email, password: seedUsers.owner2.password, role: 'owner' },
      { email: seedUsers.owner3.email, password: seedUsers.owner3.password, role: 'owner' },
      { email: seedUsers.manager1.email, password: seedUsers.manager1.password, role: 'manager' },
      { email: seedUsers.cashier1.email, password: seedUsers.cashier1.password, role: 'cashier' },
      { email: seedUsers.owner4.email, password: seedUsers.owner4.password, role: 'owner' },
      { email: seedUsers.owner5.email, password: seedUsers.owner5.password, role: 'owner' },
    ]);
    for (const account of demoAccounts()) expect(account.description.length).toBeGreaterThan(10);
  });

  it.each(demoAccounts())('$email exists, confirmed, with its password, role and profile', async (account) => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select u.email_confirmed_at is not null as confirmed,
              u.encrypted_password = extensions.crypt($2, u.encrypted_password) as password_ok,
              exists (select 1 from private.user_roles r where r.user_id = u.id and r.role = 'admin') as admin,
              exists (select 1 from auth.identities i where i.user_id = u.id and i.provider = 'email') as identity,
              p.full_name is not null as named
         from auth.users u left join public.profiles p on p.id = u.id
        where u.email = $1`,
      [account.email, account.password],
    );
    expect(rows).toEqual([{ confirmed: true, password_ok: true, admin: account.role === 'admin', identity: true,
      named: true }]);
  });

  it('produces the admin figures written in its header', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select (select count(*)::int from public.profiles) as profiles,
              (select count(*)::int from public.user_plans where auto_renew) as auto_renew_plans,
              (select sum(amount)::text from public.billing_history) as revenue,
              (select count(*)::int from public.support_tickets where status = 'open') as open_tickets,
              (select count(*)::int from public.payment_methods) as payment_methods`,
    );
    expect(rows[0]).toEqual({ profiles: 8, auto_renew_plans: 1, revenue: '529.71', open_tickets: 2, payment_methods: 3 });
  });

  it('gives owner1 and owner2 the promised plans and history, owner3, owner4 and owner5 nothing', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select u.email,
              (select to_jsonb(x) from (select plan_name, price::text as price, billing_cycle, status, auto_renew
                                          from public.user_plans where user_id = u.id) x) as plan,
              (select count(*)::int from public.billing_history where user_id = u.id) as billing,
              (select count(*)::int from public.billing_history where user_id = u.id and invoice_url is not null) as invoices,
              (select string_agg(type || case when is_default then '*' else '' end, ',' order by is_default desc, type)
                 from public.payment_methods where user_id = u.id) as cards,
              (select count(*)::int from public.support_tickets where user_id = u.id) as tickets,
              (select count(*)::int from public.login_activity where user_id = u.id) as logins,
              (select string_agg(device || case when is_current then '*' else '' end, ',' order by last_active desc)
                 from public.active_sessions where user_id = u.id) as sessions
         from auth.users u where u.email like 'owner%' order by u.email`,
    );
    expect(rows).toEqual([
      { email: 'owner1@storewise.local', billing: 6, invoices: 4, cards: 'visa*,mastercard', tickets: 3, logins: 5,
        plan: { plan_name: 'Growth', price: '29.99', billing_cycle: 'annual', status: 'active', auto_renew: true },
        sessions: 'Storewise Desktop on macOS*,Chrome on Windows' },
      { email: 'owner2@storewise.local', billing: 3, invoices: 1, cards: 'mobile*', tickets: 1, logins: 1,
        plan: { plan_name: 'Starter', price: '9.99', billing_cycle: 'annual', status: 'trialing', auto_renew: false },
        sessions: 'Safari on iOS*' },
      { email: 'owner3@storewise.local', billing: 0, invoices: 0, cards: null, tickets: 0, logins: 0, plan: null,
        sessions: null },
      { email: 'owner4@storewise.local', billing: 0, invoices: 0, cards: null, tickets: 0, logins: 0, plan: null,
        sessions: null },
      { email: 'owner5@storewise.local', billing: 0, invoices: 0, cards: null, tickets: 0, logins: 0, plan: null,
        sessions: null },
    ]);
  });

  it('dates everything in the past except the next billing dates', async () => {
    const { rows } = await db.query<{ future: number }>(
      `select ((select count(*) from public.billing_history where date > now())
             + (select count(*) from public.login_activity where login_at > now())
             + (select count(*) from public.active_sessions where last_active > now())
             + (select count(*) from public.support_tickets where created_at > now() or updated_at > now()))::int as future`,
    );
    expect(rows[0]?.future).toBe(0);
  });

  it("shows today's trading at the demo shop: closed shifts with sales up to a few minutes ago, none open", async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      // Today's sales; in the store's first three hours of the day, the last three hours' (the demo's day-0 shift
      // opens at 08:00, or three hours ago: just after midnight its sales are still yesterday's).
      `select (select count(*)::int from public.sales s join public.stores st on st.id = s.store_id
                where (s.occurred_at at time zone st.time_zone)::date = (now() at time zone st.time_zone)::date
                   or ((now() at time zone st.time_zone)::time < time '03:00'
                       and s.occurred_at > now() - interval '3 hours')) > 0
                as sales_today,
              (select count(*)::int from public.sales where occurred_at > now() or recorded_at > now()) as future_sales,
              (select count(*)::int from public.shifts where closed_at is null) as open_shifts,
              (select count(*)::int from public.shifts where closed_at > now() or opened_at > now()) as future_shifts,
              (select count(*)::int from public.sales s join public.shifts sh on sh.id = s.shift_id
                where s.occurred_at not between sh.opened_at and sh.closed_at) as sales_outside_their_shift`,
    );
    expect(rows[0]).toEqual({ sales_today: true, future_sales: 0, open_shifts: 0, future_shifts: 0,
      sales_outside_their_shift: 0 });
  });

  it('gives the admin overview the same figures', async () => {
    const overview = await db.asRequest(
      { role: 'authenticated', claims: { role: 'authenticated', sub: seedUsers.admin.id }, readOnly: true },
      async (tx) => (await tx.query<Record<string, unknown>>(
        'select total_profiles::int, active_users::int, total_revenue::text, open_tickets::int from public.admin_overview()',
      )).rows,
    );
    expect(overview).toEqual([{ total_profiles: 8, active_users: 1, total_revenue: '529.71', open_tickets: 2 }]);
  });

  it('gives Fresh Corner Market a manager and a cashier with the till PINs the README lists, and no business of their own', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select u.email, m.role::text as role, m.all_stores,
              p.pin_hash = extensions.crypt(
                case u.id when $2::uuid then $4 else $5 end, p.pin_hash) as pin_ok,
              private.pin_problem(case u.id when $2::uuid then $4 else $5 end) as pin_problem,
              (select count(*)::int from public.business_members o where o.user_id = u.id) as memberships
         from auth.users u
         join public.business_members m on m.user_id = u.id
         join public.business_members owner on owner.business_id = m.business_id and owner.user_id = $1 and owner.role = 'owner'
         join private.staff_pins p on p.business_id = m.business_id and p.user_id = u.id
        where u.id in ($2, $3) order by u.email`,
      [seedUsers.owner1.id, seedUsers.manager1.id, seedUsers.cashier1.id, seedUsers.manager1.pin, seedUsers.cashier1.pin],
    );
    expect(rows).toEqual([
      { email: seedUsers.cashier1.email, role: 'cashier', all_stores: true, pin_ok: true, pin_problem: null, memberships: 1 },
      { email: seedUsers.manager1.email, role: 'manager', all_stores: true, pin_ok: true, pin_problem: null, memberships: 1 },
    ]);
    const readme = readFileSync('README.md', 'utf8');
    for (const who of [seedUsers.manager1, seedUsers.cashier1]) {
      expect(readme).toContain(`| ${who.email} | ${who.password} |`);
      expect(readme).toContain(`till PIN **${who.pin}**`);
    }
  });

  it('gives owner4 an Electronics shop: IMEIs with their Luhn digit received on an order, four sold, one returned', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select b.packs,
              (select count(*)::int from public.serial_numbers n where n.business_id = b.id) as units,
              (select count(*)::int from public.serial_numbers n join public.variants v on v.id = n.variant_id
                 join public.products p on p.id = v.product_id
                where n.business_id = b.id and p.serial_tracking = 'imei' and not private.imei_is_valid(n.serial)) as bad_imeis,
              (select count(*)::int from public.serial_numbers n where n.business_id = b.id and n.purchase_order_id is null) as without_order,
              (select count(*)::int from public.serial_numbers n where n.business_id = b.id and n.status = 'sold') as sold,
              (select count(*)::int from public.refund_lines rl join public.sale_line_serials ss on ss.sale_line_id = rl.sale_line_id
                where ss.business_id = b.id and rl.disposition = 'restock') as returned,
              (select count(*)::int from public.sales s where s.business_id = b.id) as sales,
              (select count(*)::int from public.sales s where s.business_id = b.id and s.flagged_for_review) as flagged,
              (select count(*)::int from public.refunds f where f.business_id = b.id and f.flagged_for_review) as flagged_refunds,
              (select count(*)::int from public.products p where p.business_id = b.id and p.warranty_months is not null) as with_warranty
         from public.businesses b where b.owner_id = $1`, [seedUsers.owner4.id]);
    expect(rows).toEqual([{ packs: ['serials'], units: 14, bad_imeis: 0, without_order: 0, sold: 4, returned: 1, sales: 5,
      flagged: 0, flagged_refunds: 0, with_warranty: 4 }]);
    // The returned phone is back in stock and its lookup shows the sale, the return and no warranty running.
    const found = await db.asRequest(
      { role: 'authenticated', claims: { role: 'authenticated', sub: seedUsers.owner4.id }, readOnly: true },
      async (tx) => (await tx.query<{ units: { status: string; warranty: string; sales: { refunds: unknown[] }[] }[] }>(
        `select public.find_serial(b.id, '354672110200027') as units from public.businesses b where b.owner_id = $1`,
        [seedUsers.owner4.id])).rows[0]?.units);
    expect(found?.map((u) => [u.status, u.warranty, u.sales.length, u.sales[0]?.refunds.length])).toEqual([['in_stock', 'not_sold', 1, 1]]);
  });

  it('gives owner5 a Pharmacy: prescription-only and controlled medicines sold on prescriptions, one returned', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select b.packs,
              (select count(*)::int from public.products p where p.business_id = b.id and p.prescription_only) as prescription_only,
              (select count(*)::int from public.products p where p.business_id = b.id and p.controlled) as controlled,
              (select count(*)::int from public.sale_line_prescriptions rx where rx.business_id = b.id) as prescriptions,
              (select count(*)::int from public.sales s where s.business_id = b.id) as sales,
              (select count(*)::int from public.sales s where s.business_id = b.id and s.flagged_for_review) as flagged,
              (select count(*)::int from public.refunds f where f.business_id = b.id) as refunds
         from public.businesses b where b.owner_id = $1`, [seedUsers.owner5.id]);
    expect(rows).toEqual([{ packs: ['lots_fefo', 'prescriptions'], prescription_only: 3, controlled: 2, prescriptions: 4, sales: 6,
      flagged: 0, refunds: 1 }]);
    // The oxycodone register: 30 received, 1 and 2 sold on prescriptions; its balance is the store's stock.
    const register = await db.asRequest(
      { role: 'authenticated', claims: { role: 'authenticated', sub: seedUsers.owner5.id }, readOnly: true },
      async (tx) => (await tx.query<{ kind: string; balance: string; prescription_number: string | null }>(
        `select r.kind, r.balance::text, r.prescription_number
           from public.variants v, public.controlled_register('5a000000-0000-4000-8000-000000000050', v.id) r
          where v.sku = 'OXY-5' and v.business_id = (select id from public.businesses where owner_id = $1)`,
        [seedUsers.owner5.id])).rows);
    expect(register.map((r) => [r.kind, Number(r.balance), r.prescription_number]))
      .toEqual([['sold', 27, 'RX-104251'], ['sold', 29, 'RX-104230'], ['received', 30, null]]);
  });

  it('makes Riverbend a Canadian pharmacy: cash rounded to 0.05 as the register sends it, US dollars at the owner\'s rate, a close that balances per currency', async () => {
    const riverbend = '5a000000-0000-4000-8000-000000000050';
    const { rows: [store] } = await db.query<Record<string, unknown>>(
      'select currency, time_zone, cash_rounding_step::int as step, address, phone from public.stores where id = $1', [riverbend]);
    expect(store).toEqual({ currency: 'CAD', time_zone: 'America/Toronto', step: 5, address: '12 High Street, Riverbend, ON N0B 2K0',
      phone: '+1 519 555 0150' });
    // Two versions of the owner's USD rate: the one the shift sold at, and today's, set through set_exchange_rate.
    const { rows: rates } = await db.query<{ id: string; rate: string; days_ago: number; by_owner: boolean; trail: number }>(
      `select r.id, r.rate::text, round(extract(epoch from now() - r.effective_from) / 86400)::int as days_ago,
              r.created_by = $2 as by_owner,
              (select count(*)::int from public.activity a where a.entity_id = r.id and a.kind = 'exchange_rate.created'
                  and a.actor_id = $2) as trail
         from public.exchange_rates r
        where r.business_id = (select business_id from public.stores where id = $1)
          and r.currency = 'USD' and r.base_currency = 'CAD' order by r.effective_from`, [riverbend, seedUsers.owner5.id]);
    expect(rates.map(({ id: _id, ...r }) => r)).toEqual([
      { rate: '1.3800000000', days_ago: 30, by_owner: true, trail: 1 },
      { rate: '1.3900000000', days_ago: 0, by_owner: true, trail: 1 },
    ]);
    const then = { id: rates[0]?.id ?? '', currency: 'USD', rate: '1.38', effectiveFrom: '' };

    const { rows: sales } = await db.query<{ receipt_number: string; total: number; cash_rounding: number; shift_id: string;
      tenders: Record<string, unknown>[] }>(
      `select s.receipt_number, s.total::int, s.cash_rounding::int, s.shift_id,
              (select jsonb_agg(jsonb_build_object('kind', t.kind, 'amount', t.amount, 'tendered', t.tendered)
                       || case when t.currency is null then '{}'::jsonb else jsonb_build_object('currency', t.currency,
                            'rate_id', t.rate_id, 'rate', trim(trailing '.' from trim(trailing '0' from t.rate::text)),
                            'foreign_tendered', t.foreign_tendered) end
                       order by t.kind, t.amount desc) from public.sale_tenders t where t.sale_id = s.id) as tenders
         from public.sales s where s.store_id = $1 order by s.receipt_number`, [riverbend]);
    // What the register itself sends for each cash sale (cart.ts, foreign-tender.ts at the store's step of 5).
    const register = (total: number, steps: ((t: Tender[]) => Tender[] | string)[]) =>
      steps.reduce<Tender[]>((t, step) => {
        const next = step(t);
        if (typeof next === 'string') throw new Error(next);
        return next;
      }, []).map(tenderPayload).sort((a, b) => a.kind.localeCompare(b.kind) || b.amount - a.amount);
    const cash = (total: number, given: number) => (t: Tender[]) => addTender(total, t, 'cash', given, 5);
    const card = (total: number) => (t: Tender[]) => addTender(total, t, 'card', null, 5);
    const usd = (total: number, given: number) => (t: Tender[]) => addForeignTender(total, t, given, then, 'CAD', 5);
    expect(sales.map(({ shift_id: _s, ...sale }) => sale)).toEqual([
      // 3 x 3.99 = 11.97: cash pays 11.95 from a 20 (the rounding takes 0.02 off).
      { receipt_number: 'RB1-000001', total: 1197, cash_rounding: -2, tenders: register(1197, [cash(1197, 2000)]) },
      { receipt_number: 'RB1-000002', total: 1250, cash_rounding: 0, tenders: register(1250, [card(1250)]) },
      { receipt_number: 'RB1-000003', total: 2400, cash_rounding: 0, tenders: register(2400, [card(2400)]) },
      { receipt_number: 'RB1-000004', total: 1890, cash_rounding: 0, tenders: register(1890, [card(1890)]) },
      // 48.00: a US$20 note (27.60 at 1.38), the rest by card.
      { receipt_number: 'RB1-000005', total: 4800, cash_rounding: 0, tenders: register(4800, [usd(4800, 2000), card(4800)]) },
      // 5.49 rounds to 5.50 in cash; a US$5 note is worth 6.90: 1.40 change in Canadian dollars.
      { receipt_number: 'RB1-000006', total: 549, cash_rounding: 1, tenders: register(549, [usd(549, 500)]) },
    ]);
    // The figures themselves, so a change on the register's side shows here too.
    expect(sales[0]?.tenders).toEqual([{ kind: 'cash', amount: 1195, tendered: 2000 }]);
    expect(sales[5]?.tenders).toEqual([{ kind: 'cash', amount: 550, tendered: 690, currency: 'USD', rate_id: then.id, rate: '1.38',
      foreign_tendered: 500 }]);

    // The Z report of that shift, as the owner reads it: the rounding, the Canadian drawer and the US dollars balance.
    const z = await db.asRequest(
      { role: 'authenticated', claims: { role: 'authenticated', sub: seedUsers.owner5.id }, readOnly: true },
      async (tx) => (await tx.query<{ z: Record<string, unknown> }>('select public.z_report($1) as z', [sales[0]?.shift_id])).rows[0]?.z);
    expect(z).toMatchObject({ sales_count: 6, cash_rounding: -1, opening_float: 10000, tenders: { cash: 4505, card: 7580 },
      refunds_count: 1, refunds_cash_rounding: 0, expected_cash: 11055, counted_total: 11055, difference: 0,
      foreign_cash: [{ currency: 'USD', tenders: 2, expected: 2500, paid: 3310, change: 140, counted: 2500, difference: 0 }],
      after_close: null });
  });

  it('gives owner2 a Clothing shop: a size and colour grid within the plan, two seasons, real sell-through, last season marked down', async () => {
    const owner2 = { role: 'authenticated', claims: { role: 'authenticated', sub: seedUsers.owner2.id }, readOnly: true } as const;
    const business = (await db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [seedUsers.owner2.id]))
      .rows[0]!.id;
    const { rows: [shop] } = await db.query<Record<string, unknown>>(
      `select b.packs,
              (select count(*)::int from public.variants v where v.business_id = b.id and v.archived_at is null) as items,
              (select max_products from private.plan_limits(b.id)) as plan_items,
              (select max_products from private.plan_limits_of('Free')) as free_items,
              (select count(*)::int from public.variants v where v.business_id = b.id
                  and not exists (select 1 from public.barcodes c where c.variant_id = v.id and c.kind = 'ean13'
                                     and c.code = left(c.code, 12) || private.gtin_check_digit(left(c.code, 12))::text)) as without_ean13,
              (select count(*)::int from public.variants v where v.business_id = b.id
                  and not exists (select 1 from public.variant_costs c where c.variant_id = v.id and c.cost > 0)) as without_cost,
              (select count(*)::int from public.products p where p.business_id = b.id and p.collection_id is null) as outside_collections,
              (select count(*)::int from public.purchase_orders o where o.business_id = b.id and o.status = 'received') as orders_received,
              (select count(*)::int from public.sales s where s.business_id = b.id) as sales,
              (select count(*)::int from public.sales s where s.business_id = b.id and s.flagged_for_review) as flagged,
              (select count(*)::int from public.sales s join public.registers r on r.id = s.register_id
                where s.business_id = b.id and r.receipt_prefix <> 'TN1') as off_tn1,
              (select count(*)::int from public.sales s where s.business_id = b.id and s.currency <> 'GBP') as not_gbp,
              (select count(*)::int from public.sale_lines l where l.business_id = b.id and l.tax_rate <> 20) as not_vat_20,
              (select count(distinct (s.occurred_at at time zone 'Europe/London')::date)::int from public.sales s
                where s.business_id = b.id) as trading_days,
              (select count(*)::int from public.shifts h where h.business_id = b.id and (h.closed_at is null or h.difference <> 0))
                as open_or_short_shifts,
              (select count(*)::int from public.refunds f where f.business_id = b.id) as refunds
         from public.businesses b where b.id = $1`, [business]);
    expect(shop).toEqual({ packs: ['size_grid'], items: 22, plan_items: 100, free_items: 25, without_ean13: 0, without_cost: 0,
      outside_collections: 0, orders_received: 2, sales: expect.any(Number), flagged: 0, off_tn1: 0, not_gbp: 0, not_vat_20: 0,
      trading_days: expect.any(Number), open_or_short_shifts: 0, refunds: 1 });
    // Within the Free plan's items too, so an ended trial leaves the shop at its limit, not over it.
    expect(shop!.items as number).toBeLessThanOrEqual(shop!.free_items as number);
    // Three weeks, Monday to Saturday: 18 trading days, each with 2 to 4 sales.
    expect(shop!.trading_days).toBe(18);
    expect(shop!.sales as number).toBeGreaterThanOrEqual(36);
    expect(shop!.sales as number).toBeLessThanOrEqual(72);

    // Every variant is a cell of its product's grid (option 1 the size, option 2 the colour), with the grid's SKU.
    const { rows: variants } = await db.query<{ product: string; option1_name: string; option2_name: string; option1: string;
      option2: string; sku: string }>(
      `select p.name as product, p.option1_name, p.option2_name, v.option1, v.option2, v.sku
         from public.variants v join public.products p on p.id = v.product_id
        where v.business_id = $1 order by p.name, v.created_at, v.sku`, [business]);
    const products = [...new Set(variants.map((v) => v.product))];
    expect(products).toEqual(['Merino Crew Knit', 'Organic Cotton Tee', 'Stretch Chinos']);
    for (const product of products) {
      const mine = variants.filter((v) => v.product === product);
      expect(mine.every((v) => v.option1_name === 'Size' && v.option2_name === 'Colour')).toBe(true);
      const sizes = [...new Set(mine.map((v) => v.option1))];
      const colours = [...new Set(mine.map((v) => v.option2))];
      const style = mine[0]!.sku.split('-')[0]!;
      expect(mine.map((v) => v.sku).sort()).toEqual(gridCells(style, sizes, colours).map((c) => c.sku).sort());
    }
    expect(variants.filter((v) => v.product === 'Organic Cotton Tee')).toHaveLength(12); // S/M/L/XL x three colours

    // Stock: every balance is its ledger's sum, none below zero.
    const { rows: [stock] } = await db.query<Record<string, number>>(
      `select count(*)::int as balances,
              count(*) filter (where b.qty <> coalesce((select sum(m.qty) from public.stock_movements m where m.store_id = b.store_id
                                 and m.variant_id = b.variant_id and m.lot_id is not distinct from b.lot_id), 0))::int as off_ledger,
              count(*) filter (where b.qty < 0)::int as negative
         from public.stock_balances b where b.business_id = $1`, [business]);
    expect(stock).toEqual({ balances: 22, off_ledger: 0, negative: 0 });

    // Two collections, this season's running today and last season's ended; Reports > Collections has figures for both.
    const report = await db.asRequest(owner2, async (tx) => (await tx.query<{ season_code: string; starts_on: string;
      ends_on: string; running: boolean; products: string; units_sold: string; on_hand_end: string; sell_through: string; revenue: string }>(
      `select r.season_code, r.starts_on::text, r.ends_on::text, r.products,
              (now() at time zone 'Europe/London')::date between r.starts_on and r.ends_on as running,
              r.units_sold, r.on_hand_end, r.sell_through, r.revenue
         from public.report_collection_sell_through($1, (now() at time zone 'Europe/London')::date - 30,
                                                    (now() at time zone 'Europe/London')::date) r`, [business])).rows);
    expect(report.map((r) => r.running)).toEqual([true, false]);
    expect(report.map((r) => Number(r.products))).toEqual([report[0]!.season_code.startsWith('AW') ? 2 : 1,
      report[0]!.season_code.startsWith('AW') ? 1 : 2]);
    for (const r of report) {
      expect(r.season_code).toMatch(/^(AW|SS)\d\d$/);
      expect(Number(r.units_sold)).toBeGreaterThan(0);
      expect(Number(r.on_hand_end)).toBeGreaterThan(0);
      expect(Number(r.sell_through)).toBeGreaterThan(0);
      expect(Number(r.sell_through)).toBeLessThan(1);
      expect(Number(r.revenue)).toBeGreaterThan(0);
    }
    // The units sold are the sales' lines less the one return.
    const { rows: [units] } = await db.query<{ sold: string }>(
      `select (select sum(l.qty) from public.sale_lines l where l.business_id = $1)
            - (select sum(rl.qty) from public.refund_lines rl where rl.business_id = $1) as sold`, [business]);
    expect(report.reduce((sum, r) => sum + Number(r.units_sold), 0)).toBe(Number(units!.sold));

    // The markdown: last season's items are 30 % off their sold price, through markdown_collection (trail entries by owner2).
    const { rows: marked } = await db.query<{ sku: string; price: number; sold_at: number | null; before: number | null;
      after: number | null; actor_id: string | null }>(
      `select v.sku, v.price,
              (select max(l.unit_price)::int from public.sale_lines l where l.variant_id = v.id) as sold_at,
              (a.before ->> 'price')::int as before, (a.after ->> 'price')::int as after, a.actor_id
         from public.variants v
         join public.products p on p.id = v.product_id
         join public.collections c on c.id = p.collection_id
         left join public.activity a on a.entity_id = v.id and a.kind = 'variant.updated'
        where v.business_id = $1 and c.ends_on < (now() at time zone 'Europe/London')::date
        order by v.sku`, [business]);
    expect(marked.length).toBeGreaterThan(0);
    for (const m of marked) {
      expect(m.after).toBe(m.price);
      expect(m.price).toBe(Math.round((m.before ?? 0) * 0.7));
      if (m.sold_at !== null) expect(m.sold_at).toBe(m.before);
      expect(m.actor_id).toBe(seedUsers.owner2.id);
    }
    expect(marked.some((m) => m.sold_at !== null)).toBe(true);
    const { rows: markdowns } = await db.query<{ kind: string; value: string; changed: number }>(
      `select a.after ->> 'kind' as kind, a.after ->> 'value' as value, (a.after ->> 'variants_changed')::int as changed
         from public.activity a where a.business_id = $1 and a.kind = 'collection.marked_down'`, [business]);
    expect(markdowns).toEqual([{ kind: 'percent', value: '30', changed: marked.length }]);
  });
});
