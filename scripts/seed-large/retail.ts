/**
 * The retail part of `npm run seed:large` (issues 12 and 14): one business ("Large Retail Co.") with 10 stores,
 * 100,000 variants (products with 1 to 3 size variants, an EAN-13 each and an internal code on every tenth,
 * costs, opening stock as ledger rows) and a year of sales: 1,000,000 sale lines with weekly and yearly
 * seasonality, costs recorded per line, tenders, shifts, about 1% refunded, a few percent synced late from offline
 * registers. Rows are the ones the database functions write (post_sale, post_refund, apply_movement): one ledger
 * row per sold (sale, variant) and per restocked refund line, and every balance is the sum of its ledger.
 *
 * Everything is generated inside the database from deterministic ids (md5 of the business id and an index), in
 * one transaction per batch, with session_replication_role = replica as a superuser (no triggers, no foreign-key
 * checks: consistent by construction). The maintained report summaries (ADR 0143) are recomputed at the end.
 * The sale plan (how many sales per store and day, their times and sizes) comes from a seeded PRNG in this file,
 * so runs are comparable.
 *
 * Sign-in: retail-owner@, retail-manager@ (stores 1 and 2) and retail-cashier@ (store 1) at large.storewise.test,
 * with the shared large-seed password.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../../supabase/local/db/types';
import { atOnce } from './at-once';
import { BULK_TABLES, dropBulkIndexes, restoreBulkIndexes, type DroppedIndex } from './bulk-indexes';

export interface RetailOptions {
  variants: number;
  stores: number;
  saleLines: number;
  /** Sales per transaction. */
  salesBatch: number;
  /** Sales transactions at once on PostgreSQL (default SALES_WORKERS; PGlite: always 1). */
  salesWorkers?: number;
  /**
   * The catalog alone (issue 32, the register at 1,000,000 variants): business, people, stores, registers, products,
   * variants, costs and barcodes, then statistics, a vacuum and the register's packed catalog. No opening stock, no
   * sales, no report summaries, no search words: the register reads none of them, and at 1,000,000 variants they
   * are what made the full set run over an hour on PGlite (ADR 0420).
   */
  catalogOnly?: boolean;
}

/** Three batches at once: on the shared 2-core machine more only queue behind each other. */
export const SALES_WORKERS = 3;

export const defaultRetailOptions: RetailOptions = { variants: 100_000, stores: 10, saleLines: 1_000_000, salesBatch: 25_000 };

export interface RetailReport {
  businessId: string | null;
  variants: number;
  sales: number;
  saleLines: number;
  refunds: number;
  skipped?: string;
}

export const RETAIL_OWNER_EMAIL = 'retail-owner@large.storewise.test';
export const RETAIL_MANAGER_EMAIL = 'retail-manager@large.storewise.test';
export const RETAIL_CASHIER_EMAIL = 'retail-cashier@large.storewise.test';
export const RETAIL_BUSINESS_NAME = 'Large Retail Co.';

const DAY = 86_400_000;
export const RETAIL_DAYS = 365;

/** mulberry32, as in seed-large.ts. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Timed = (phase: string, fn: () => Promise<unknown>) => Promise<void>;

async function inBatch<T>(db: Db, superuser: boolean, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // Replica mode skips triggers and foreign-key checks (two thirds of the insert time, ADR 0062); without
    // superuser rights the triggers run (slower, same rows; the summaries are recomputed at the end anyway).
    if (superuser) await tx.query('set local session_replication_role = replica');
    return fn(tx);
  });
}

// ---------------------------------------------------------------------------------------------------
// Business, people, stores, registers, categories.

async function createBusiness(tx: Queryable, passwordHash: string, stores: number): Promise<string> {
  const people = [
    { email: RETAIL_OWNER_EMAIL, name: 'Rita Owner' },
    { email: RETAIL_MANAGER_EMAIL, name: 'Marco Manager' },
    { email: RETAIL_CASHIER_EMAIL, name: 'Cleo Cashier' },
  ];
  const ids = people.map(() => randomUUID());
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                             raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
                             confirmation_token, recovery_token, email_change_token_new, email_change,
                             email_change_token_current, phone_change, phone_change_token, reauthentication_token)
     select '00000000-0000-0000-0000-000000000000'::uuid, u.id, 'authenticated', 'authenticated', u.email, $4,
            now() - interval '400 days', '{"provider":"email","providers":["email"]}'::jsonb,
            jsonb_build_object('full_name', u.name), now() - interval '400 days', now(), '', '', '', '', '', '', '', ''
       from unnest($1::uuid[], $2::text[], $3::text[]) as u (id, email, name)`,
    [ids, people.map((p) => p.email), people.map((p) => p.name), passwordHash],
  );
  await tx.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, created_at, updated_at)
     select u.id, u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
            'email', now() - interval '400 days', now()
       from unnest($1::uuid[], $2::text[]) as u (id, email)`,
    [ids, people.map((p) => p.email)],
  );
  await tx.query(
    `insert into public.profiles (id, full_name, business_name, business_type, created_at, updated_at)
     select u.id, u.name, $3, 'Grocery', now() - interval '400 days', now()
       from unnest($1::uuid[], $2::text[]) as u (id, name)`,
    [ids, people.map((p) => p.name), RETAIL_BUSINESS_NAME],
  );
  await tx.query(
    `insert into public.user_plans (user_id, plan_name, price, billing_cycle, status, auto_renew, started_at,
                                    next_billing_date, created_at, updated_at)
     values ($1, 'Enterprise', 499, 'annual', 'active', true, now() - interval '400 days', now() + interval '30 days',
             now() - interval '400 days', now())`,
    [ids[0]],
  );
  const business = randomUUID();
  await tx.query(
    `insert into public.businesses (id, name, type, email, owner_id, created_at, updated_at)
     values ($1, $2, 'Grocery', 'owner@large-retail.example', $3, now() - interval '400 days', now())`,
    [business, RETAIL_BUSINESS_NAME, ids[0]],
  );
  await tx.query(
    `insert into public.business_members (business_id, user_id, role, all_stores)
     values ($1, $2, 'owner', true), ($1, $3, 'manager', false), ($1, $4, 'cashier', false)`,
    [business, ids[0], ids[1], ids[2]],
  );
  // Stores: most in New York time, every fourth in Chicago; 2 registers each.
  await tx.query(
    `insert into public.stores (id, business_id, name, address, time_zone, currency, tax_inclusive, default_tax_rate,
                                created_at, updated_at)
     select md5($1::uuid::text || ':s:' || s)::uuid, $1, 'Large Retail #' || lpad(s::text, greatest(2, length($2::int::text)), '0'), s || ' Main Street',
            case when s % 4 = 0 then 'America/Chicago' else 'America/New_York' end, 'USD', false, 8.875,
            now() - interval '400 days', now()
       from generate_series(1, $2::int) s`,
    [business, stores],
  );
  await tx.query(
    `insert into public.registers (id, business_id, store_id, name, receipt_prefix)
     select md5($1::uuid::text || ':r:' || s || ':' || r)::uuid, $1, md5($1::uuid::text || ':s:' || s)::uuid,
            case r when 1 then 'Front till' else 'Express lane' end, 'LR' || lpad(s::text, greatest(2, length($2::int::text)), '0') || r
       from generate_series(1, $2::int) s cross join generate_series(1, 2) r`,
    [business, stores],
  );
  await tx.query(
    `insert into public.member_store_access (business_id, user_id, store_id)
     select $1::uuid, $2::uuid, md5($1::uuid::text || ':s:' || s)::uuid from generate_series(1, least(2, $4::int)) s
     union all select $1::uuid, $3::uuid, md5($1::uuid::text || ':s:1')::uuid`,
    [business, ids[1], ids[2], stores],
  );
  await tx.query(
    `insert into public.categories (id, business_id, name)
     select md5($1::uuid::text || ':c:' || c)::uuid, $1, n
       from unnest(array['Produce', 'Dairy', 'Bakery', 'Pantry', 'Beverages', 'Frozen', 'Snacks', 'Household',
                         'Health', 'Beauty', 'Baby', 'Pets']) with ordinality as x (n, c)`,
    [business],
  );
  return business;
}

// ---------------------------------------------------------------------------------------------------
// Catalog: products in groups of three with 1, 2 and 3 variants (6 variants a group).

const catalogWords = {
  adjectives: ['Organic', 'Classic', 'Fresh', 'Premium', 'Family', 'Local', 'Golden', 'Everyday'],
  nouns: [
    'Apples', 'Bananas', 'Carrots', 'Tomatoes', 'Potatoes', 'Milk', 'Yogurt', 'Butter', 'Cheddar', 'Kefir',
    'Sourdough', 'Bagels', 'Croissants', 'Muffins', 'Rice', 'Pasta', 'Olive Oil', 'Flour', 'Honey', 'Oats',
    'Orange Juice', 'Sparkling Water', 'Coffee Beans', 'Green Tea', 'Lemonade', 'Peas', 'Pizza', 'Berries',
    'Ice Cream', 'Dumplings', 'Crisps', 'Pretzels', 'Granola', 'Almonds', 'Popcorn', 'Chocolate', 'Dish Soap',
    'Paper Towels', 'Sponges', 'Detergent', 'Vitamins', 'Plasters', 'Shampoo', 'Toothpaste', 'Lotion', 'Nappies',
    'Baby Wipes', 'Dog Food', 'Cat Litter', 'Bird Seed',
  ],
  brands: ['Green Valley', 'Springfield Farms', 'Corner Basics', 'Golden Field', 'Northwind', 'Bluebell', 'Oakridge', 'Sunny Acres'],
  packs: ['250 g', '500 g', '1 kg', '6 pack', '12 pack', 'Family Size', '330 ml', '1 l', 'Value Pack', 'Mini'],
};

/** The GTIN check digit of a 12-digit body b.body, inline (private.gtin_check_digit per row is 10x slower). */
const CHECK_DIGIT_12 = `((10 - (${Array.from({ length: 12 }, (_, k) => `substr(b.body, ${k + 1}, 1)::int * ${k % 2 === 0 ? 1 : 3}`).join(' + ')}) % 10) % 10)::text`;

async function insertCatalog(tx: Queryable, business: string, firstGroup: number, groups: number, variants: number): Promise<void> {
  const w = catalogWords;
  // Product j of group g = j / 3 has 1 + j % 3 variants; variant i of it = 6g + [0, 1, 3][j % 3] + k.
  await tx.query(
    `insert into public.products (id, business_id, name, category_id, brand, unit, option1_name, created_at, updated_at)
     select md5($1::uuid::text || ':p:' || j)::uuid, $1,
            ($4::text[])[1 + j % 8] || ' ' || ($5::text[])[1 + (j / 8) % 50] || ' ' || ($7::text[])[1 + (j / 400) % 10],
            md5($1::uuid::text || ':c:' || (1 + ((j / 8) % 50) / 5 % 12))::uuid, ($6::text[])[1 + (j * 7 + j / 8) % 8], 'each',
            case when j % 3 = 0 then null else 'Size' end, now() - interval '400 days', now() - interval '400 days'
       from generate_series($2::int * 3, ($2::int + $3::int) * 3 - 1) j
      where 6 * (j / 3) + (array[0, 1, 3])[1 + j % 3] < $8::int`,
    [business, firstGroup, groups, w.adjectives, w.nouns, w.brands, w.packs, variants],
  );
  await tx.query(
    `create temporary table retail_new_variants on commit drop as
     select md5($1::uuid::text || ':v:' || i)::uuid as id, md5($1::uuid::text || ':p:' || j)::uuid as product_id, i, j, k,
            case when j % 3 = 0 then null else (array['Small', 'Medium', 'Large'])[1 + k] end as option1,
            -- bigint: past 271,000 variants i * 7919 leaves int's range (the same prices below it).
            'RT-' || lpad(i::text, 7, '0') as sku, (99 + (i::bigint * 7919) % 4901)::bigint as price
       from generate_series($2::int * 3, ($2::int + $3::int) * 3 - 1) j
      cross join lateral generate_series(0, j % 3) k
      cross join lateral (select 6 * (j / 3) + (array[0, 1, 3])[1 + j % 3] + k as i) x
      where x.i < $4::int`,
    [business, firstGroup, groups, variants],
  );
  await tx.query(
    `insert into public.variants (id, business_id, product_id, option1, sku, price, created_at, updated_at)
     select id, $1, product_id, option1, sku, price, now() - interval '400 days', now() - interval '400 days'
       from retail_new_variants`,
    [business],
  );
  await tx.query(
    `insert into public.variant_costs (variant_id, business_id, cost)
     select id, $1, round(price * (0.55 + (i % 20) / 100.0))::bigint from retail_new_variants`,
    [business],
  );
  // An EAN-13 each (0990 + 8 digits + check digit); every tenth also an internal in-store code (29...).
  await tx.query(
    `insert into public.barcodes (business_id, variant_id, code, kind, created_at)
     select $1, id, b.body || ${CHECK_DIGIT_12}, b.kind, now() - interval '400 days'
       from retail_new_variants
      cross join lateral (select '0990' || lpad(i::text, 8, '0') as body, 'ean13' as kind
                          union all
                          select '29' || lpad(i::text, 10, '0'), 'internal' where i % 10 = 0) b`,
    [business],
  );
}

// Which stores carry a variant: the first fifth everywhere, the rest in every third store.
const CARRIED = `(v.i < $3::int / 5 or (v.i + s.n) % 3 = 0)`;

async function insertOpeningStock(tx: Queryable, business: string, stores: number, variants: number, from: number, to: number): Promise<void> {
  await tx.query(
    `insert into public.stock_movements (business_id, store_id, variant_id, kind, qty, unit_cost, occurred_at,
                                         recorded_at, reference_type, note)
     select $1, md5($1::uuid::text || ':s:' || s.n)::uuid, md5($1::uuid::text || ':v:' || v.i)::uuid, 'opening', 20 + (v.i * 13 + s.n * 7) % 80,
            round((99 + (v.i::bigint * 7919) % 4901) * (0.55 + (v.i % 20) / 100.0))::bigint,
            now() - interval '380 days', now() - interval '380 days', 'import', 'opening stock'
       from generate_series($4::int, $5::int - 1) as v (i)
      cross join generate_series(1, $2::int) as s (n)
      where ${CARRIED}`,
    [business, stores, variants, from, to],
  );
}

// ---------------------------------------------------------------------------------------------------
// The sale plan: sales per store and day with weekly and yearly seasonality, times, sizes and tenders.

interface SalePlan {
  ids: string[];
  store: number[];
  register: number[];
  day: string[];
  seconds: number[];
  lines: number[];
  seq: number[];
  cash: boolean[];
  offlineHours: number[];
  seed: number[];
}

const weekly = [1.35, 0.8, 0.85, 0.9, 1.0, 1.25, 1.5]; // Sunday..Saturday
/** Yearly: a summer dip, a December peak. */
const yearly = (dayOfYear: number) => 1 + 0.25 * Math.cos(((dayOfYear - 350) / 365) * 2 * Math.PI) + (dayOfYear > 330 ? 0.35 : 0);

function* salePlans(options: RetailOptions, firstDay: Date): Generator<SalePlan> {
  const random = prng(20261123);
  const storeWeight = Array.from({ length: options.stores }, (_, s) => 1.4 - (s / Math.max(1, options.stores - 1)) * 0.8);
  // Expected lines per (store, day), normalised to the target total; 4 lines a sale on average.
  const weights: number[][] = [];
  let total = 0;
  for (let d = 0; d < RETAIL_DAYS; d += 1) {
    const date = new Date(firstDay.getTime() + d * DAY);
    const doy = Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY);
    const row = storeWeight.map((w) => w * (weekly[date.getUTCDay()] ?? 1) * yearly(doy));
    weights.push(row);
    total += row.reduce((a, b) => a + b, 0);
  }
  const scale = options.saleLines / total;
  const seqs = new Map<string, number>();
  let linesLeft = options.saleLines;
  let plan = emptyPlan();
  for (let d = 0; d < RETAIL_DAYS && linesLeft > 0; d += 1) {
    const date = new Date(firstDay.getTime() + d * DAY).toISOString().slice(0, 10);
    for (let s = 0; s < options.stores && linesLeft > 0; s += 1) {
      let lines = d === RETAIL_DAYS - 1 && s === options.stores - 1 ? linesLeft : Math.round((weights[d]?.[s] ?? 0) * scale * (0.9 + random() * 0.2));
      lines = Math.min(lines, linesLeft);
      // Sales of this store and day in time order, each register numbering its own.
      const sales: { seconds: number; lines: number; register: number }[] = [];
      while (lines > 0) {
        const n = Math.min(lines, 1 + Math.floor(random() * random() * 12));
        sales.push({ seconds: 8 * 3600 + Math.floor(random() * 13 * 3600), lines: n, register: random() < 0.6 ? 1 : 2 });
        lines -= n;
        linesLeft -= n;
      }
      sales.sort((a, b) => a.seconds - b.seconds);
      for (const sale of sales) {
        const key = `${s + 1}:${sale.register}`;
        const seq = (seqs.get(key) ?? 0) + 1;
        seqs.set(key, seq);
        plan.ids.push(randomUUID());
        plan.store.push(s + 1);
        plan.register.push(sale.register);
        plan.day.push(date);
        plan.seconds.push(sale.seconds);
        plan.lines.push(sale.lines);
        plan.seq.push(seq);
        plan.cash.push(random() < 0.35);
        // 4% come from a register that was offline: recorded 1 to 48 hours later.
        plan.offlineHours.push(random() < 0.04 ? 1 + Math.floor(random() * 48) : 0);
        plan.seed.push(Math.floor(random() * 2 ** 31));
        if (plan.ids.length >= options.salesBatch) {
          yield plan;
          plan = emptyPlan();
        }
      }
    }
  }
  if (plan.ids.length > 0) yield plan;
}

function emptyPlan(): SalePlan {
  return { ids: [], store: [], register: [], day: [], seconds: [], lines: [], seq: [], cash: [], offlineHours: [], seed: [] };
}

/** Writes one batch of sales the way post_sale does (and a few refunds the way post_refund does). */
async function insertSales(tx: Queryable, business: string, ownerId: string, options: RetailOptions, plan: SalePlan): Promise<{ lines: number; refunds: number }> {
  await tx.query(
    `create temporary table retail_sales on commit drop as
     select x.id, x.store, md5($1::uuid::text || ':s:' || x.store)::uuid as store_id,
            md5($1::uuid::text || ':r:' || x.store || ':' || x.register)::uuid as register_id,
            md5($1::uuid::text || ':sh:' || x.store || ':' || x.register || ':' || x.day)::uuid as shift_id,
            'LR' || lpad(x.store::text, greatest(2, length($12::int::text)), '0') || x.register as prefix, x.seq, x.cash, x.day, x.lines, x.seed,
            ((x.day + make_interval(secs => x.seconds)) at time zone st.time_zone) as occurred_at, x.offline_hours,
            st.tax_inclusive, st.default_tax_rate
       from unnest($2::uuid[], $3::int[], $4::int[], $5::date[], $6::int[], $7::int[], $8::int[], $9::boolean[],
                   $10::int[], $11::bigint[])
         as x (id, store, register, day, seconds, lines, seq, cash, offline_hours, seed)
       join public.stores st on st.id = md5($1::uuid::text || ':s:' || x.store)::uuid`,
    [business, plan.ids, plan.store, plan.register, plan.day, plan.seconds, plan.lines, plan.seq, plan.cash,
      plan.offlineHours, plan.seed, options.stores],
  );
  // Lines: a popular head of the catalog sells most (index ~ V * u^2.5), moved to a variant the store carries.
  // Net, tax and total in the same statement, instead of three updates of the temporary table afterwards.
  await tx.query(
    `create temporary table retail_lines on commit drop as
     select f.*, n.net, t.tax, case when f.tax_inclusive then n.net else n.net + t.tax end as total
       from (
     select gen_random_uuid() as id, x.id as sale_id, x.store_id, l as line_no, v.id as variant_id,
            p.name || coalesce(' ' || concat_ws(' / ', v.option1, v.option2, v.option3), '') as description,
            q.qty, v.price as unit_price, coalesce(p.tax_rate, x.default_tax_rate) as tax_rate, c.cost,
            x.tax_inclusive, x.occurred_at, x.seed
       from retail_sales x
      cross join lateral generate_series(1, x.lines) l
      cross join lateral (select floor($2::int * power(((x.seed * 31 + l * 7919) % 100003)::float8 / 100003, 2.5))::int as raw) r
      cross join lateral (select case when r.raw < $2::int / 5 or (r.raw + x.store) % 3 = 0 then r.raw
                                      else r.raw - (r.raw + x.store) % 3 end as i) vi
      join public.variants v on v.id = md5($1::uuid::text || ':v:' || vi.i)::uuid
      join public.products p on p.id = v.product_id
      join public.variant_costs c on c.variant_id = v.id
      cross join lateral (select (1 + (x.seed + l) % 4 / 3)::numeric as qty) q
     ) f
      cross join lateral (select round(f.unit_price * f.qty)::bigint as net) n
      cross join lateral (select case when f.tax_inclusive then round(n.net * f.tax_rate / (100 + f.tax_rate))
                                      else round(n.net * f.tax_rate / 100) end::bigint as tax) t`,
    [business, options.variants],
  );

  // A closed shift per register and day (inserted once, on the day's first batch).
  await tx.query(
    `insert into public.shifts (id, business_id, store_id, register_id, cashier_id, opened_at, opening_float,
                                closed_at, closed_by, counted_total)
     select distinct on (x.shift_id) x.shift_id, $1, x.store_id, x.register_id, $2,
            (x.day + time '07:30') at time zone st.time_zone, 20000, (x.day + time '21:30') at time zone st.time_zone,
            $2, 0
       from retail_sales x join public.stores st on st.id = x.store_id
      order by x.shift_id
     on conflict (id) do nothing`,
    [business, ownerId],
  );
  await tx.query(
    `insert into public.sales (id, business_id, store_id, register_id, shift_id, cashier_id, receipt_number, currency,
                               tax_inclusive, subtotal, discount_total, tax_total, total, tendered_total, change_total,
                               offline, occurred_at, recorded_at)
     select x.id, $1, x.store_id, x.register_id, x.shift_id, $2, private.receipt_number(x.prefix, x.seq), 'USD',
            x.tax_inclusive, t.net, 0, t.tax, t.total,
            case when x.cash then ceil(t.total / 500.0)::bigint * 500 else t.total end,
            case when x.cash then ceil(t.total / 500.0)::bigint * 500 - t.total else 0 end,
            x.offline_hours > 0, x.occurred_at, x.occurred_at + make_interval(hours => x.offline_hours)
       from retail_sales x
       join (select sale_id, sum(net) as net, sum(tax) as tax, sum(total) as total from retail_lines group by sale_id) t
         on t.sale_id = x.id`,
    [business, ownerId],
  );
  const inserted = await tx.query(
    `insert into public.sale_lines (id, business_id, store_id, sale_id, line_no, variant_id, description, qty,
                                    unit_price, discount, tax_rate, tax_amount, line_total)
     select id, $1, store_id, sale_id, line_no, variant_id, description, qty, unit_price, 0, tax_rate, tax, total
       from retail_lines`,
    [business],
  );
  await tx.query(
    `insert into public.sale_line_costs (sale_line_id, business_id, store_id, unit_cost)
     select id, $1, store_id, cost from retail_lines`,
    [business],
  );
  await tx.query(
    `insert into public.sale_tenders (business_id, store_id, sale_id, kind, amount, tendered, change)
     select $1, s.store_id, s.id, case when x.cash then 'cash' else 'card' end, s.total, s.tendered_total, s.change_total
       from retail_sales x join public.sales s on s.id = x.id`,
    [business],
  );
  // One ledger row per (sale, variant), as post_sale groups its lines.
  await tx.query(
    `insert into public.stock_movements (business_id, store_id, variant_id, kind, qty, unit_cost, occurred_at,
                                         recorded_at, actor_id, reference_type, reference_id, note)
     select $1, l.store_id, l.variant_id, 'sale', -sum(l.qty), max(l.cost), l.occurred_at,
            l.occurred_at + make_interval(hours => max(x.offline_hours)), $2, 'sale', l.sale_id,
            private.receipt_number(max(x.prefix), max(x.seq))
       from retail_lines l join retail_sales x on x.id = l.sale_id
      group by l.sale_id, l.store_id, l.variant_id, l.occurred_at`,
    [business, ownerId],
  );
  // About 1% of sales: the first line refunded in full 0-9 days later (not after now), restocked, to the sale's one
  // tender kind (taken from the plan: sale_tenders has no index on sale_id during the bulk load).
  const refunds = await tx.query(
    `with picked as (
       select gen_random_uuid() as id, x.id as sale_id, x.store_id, x.register_id, x.prefix, x.seq, x.cash,
              least(x.occurred_at + make_interval(days => (x.seed % 10)::int, hours => 1), now()) as occurred_at
         from retail_sales x where x.seed % 100 = 7
     ), refunds as (
       insert into public.refunds (id, business_id, store_id, sale_id, register_id, actor_id, tender_kind, total,
                                   reason, occurred_at, recorded_at)
       select r.id, $1, r.store_id, r.sale_id, r.register_id, $2, case when r.cash then 'cash' else 'card' end,
              l.total, 'Customer changed their mind', r.occurred_at, r.occurred_at
         from picked r
         join retail_lines l on l.sale_id = r.sale_id and l.line_no = 1
       returning id, sale_id, store_id, occurred_at
     ), lines as (
       insert into public.refund_lines (business_id, refund_id, sale_line_id, variant_id, qty, amount, disposition)
       select $1, f.id, l.id, l.variant_id, l.qty, l.total, 'restock'
         from refunds f join retail_lines l on l.sale_id = f.sale_id and l.line_no = 1
       returning refund_id
     )
     insert into public.stock_movements (business_id, store_id, variant_id, kind, qty, unit_cost, occurred_at,
                                         recorded_at, actor_id, reference_type, reference_id, note)
     select $1, f.store_id, l.variant_id, 'refund', l.qty, l.cost, f.occurred_at, f.occurred_at, $2, 'refund', f.id,
            private.receipt_number(p.prefix, p.seq)
       from refunds f join retail_lines l on l.sale_id = f.sale_id and l.line_no = 1 join picked p on p.id = f.id`,
    [business, ownerId],
  );
  return { lines: inserted.affectedRows, refunds: refunds.affectedRows };
}

// ---------------------------------------------------------------------------------------------------

/** Adds the retail data set (once: skipped when the retail owner exists). */
export async function seedRetail(
  db: Db,
  options: RetailOptions,
  passwordHash: string,
  superuser: boolean,
  timed: Timed,
  log: (line: string) => void,
): Promise<RetailReport> {
  const existing = await db.query<{ id: string }>(
    `select b.id from public.businesses b join auth.users u on u.id = b.owner_id where u.email = $1`,
    [RETAIL_OWNER_EMAIL],
  );
  if (existing.rows[0]) {
    return { businessId: existing.rows[0].id, variants: 0, sales: 0, saleLines: 0, refunds: 0, skipped: 'the retail business exists already' };
  }
  let business = '';
  await timed('retail: business', async () => {
    business = await inBatch(db, superuser, (tx) => createBusiness(tx, passwordHash, options.stores));
  });
  const owner = (await db.query<{ owner_id: string }>('select owner_id from public.businesses where id = $1', [business])).rows[0]?.owner_id ?? '';

  // As a superuser (the tables' owner), the sales and ledger tables load without their secondary indexes, which are
  // built once after the balances (bulk-indexes.ts); whatever happens in between, they are built again.
  if (options.catalogOnly) return seedCatalogOnly(db, options, superuser, timed, log, business);
  let dropped: DroppedIndex[] = [];
  if (superuser) await timed('retail: drop indexes', async () => { dropped = await dropBulkIndexes(db); });
  let report: RetailReport;
  try {
    report = await loadRetail(db, options, superuser, timed, log, business, owner);
  } finally {
    await timed('retail: build indexes', () => restoreBulkIndexes(db, dropped, workersOf(db, options), log));
  }
  await finishRetail(db, business, superuser, workersOf(db, options), timed, log);
  return report;
}

/** The catalog part of loadRetail, its statistics and a vacuum (see RetailOptions.catalogOnly). */
async function seedCatalogOnly(db: Db, options: RetailOptions, superuser: boolean, timed: Timed, log: (line: string) => void,
                               business: string): Promise<RetailReport> {
  await loadCatalog(db, options, superuser, timed, log, business);
  const tables = 'public.variants, public.products, public.barcodes, public.variant_costs';
  await timed('retail: analyze', () => db.exec(`analyze ${tables}`));
  // The visibility map, as on a live server: the register's reads of variants by (business_id, id) stay index scans
  // that skip the heap where they can.
  if (superuser) await timed('retail: vacuum', () => db.exec(`vacuum ${tables}`));
  await timed('retail: packed catalog', () => buildPackedCatalog(db, business));
  return { businessId: business, variants: options.variants, sales: 0, saleLines: 0, refunds: 0 };
}

/**
 * The register's packed catalog (ADR 0445) for a business loaded in replica mode (its triggers did not run): every
 * block built now, as a live server would have them after the first register's load. Nothing on a database from
 * before that migration.
 */
export async function buildPackedCatalog(db: Queryable, business: string): Promise<void> {
  const { rows } = await db.query<{ ok: boolean }>(`select to_regprocedure('private.pos_pack_build(uuid)') is not null as ok`);
  if (rows[0]?.ok) await db.query('select private.pos_pack_build($1)', [business]);
}

const workersOf = (db: Db, options: Pick<RetailOptions, 'salesWorkers'>): number =>
  db.kind === 'postgres' ? Math.max(1, options.salesWorkers ?? SALES_WORKERS) : 1;

/** The tables finishRetail fills from the loaded rows. */
const SUMMARY_TABLES = [
  'public.sales_daily', 'public.sales_daily_tax', 'public.sales_daily_variant', 'public.sales_monthly_variant',
  'public.sales_monthly_variant_business', 'public.sales_daily_breakdown', 'public.sales_monthly_breakdown',
  'public.stock_movements_daily', 'public.inventory_value', 'public.shift_totals', 'public.stock_pairs',
] as const;

/**
 * After the bulk load (indexes built): the statistics, the report summaries, the stock summaries, the search words
 * and a vacuum. Exported so that a load stopped after its indexes can be finished (scripts/seed-large.ts does it
 * in one go).
 *
 * The sales summaries are computed per group of 10 stores over the year's days, through the same scoped
 * private.compute_sales_summaries the posting triggers use for a moved sale, in replica mode (their own rollup
 * triggers would maintain the monthly rows row by row); the monthly rollups are then rebuilt once for the
 * business, which is what private.refresh_sales_summaries does after its one whole-business statement. On
 * PostgreSQL the groups run `workers` at a time.
 */
export async function finishRetail(db: Db, business: string, superuser: boolean, workers: number, timed: Timed,
                                   log: (line: string) => void): Promise<void> {
  // The planner must see the new row counts first: with the empty tables' statistics it expected 11 lines where
  // there were 100,000 and joined them by nested loops.
  await timed('retail: analyze', () => db.exec(`analyze ${BULK_TABLES.join(', ')}, public.stock_balances, public.variants, public.products, public.variant_costs`));
  if (superuser) {
    const stores = (await db.query<{ id: string }>('select id from public.stores where business_id = $1 order by name', [business])).rows.map((r) => r.id);
    // Every local day with a sale or a refund (a day either side of the UTC dates, for the stores' time zones).
    const days = (await db.query<{ day: string }>(
      `select d::date::text as day
         from generate_series((select min(occurred_at) from public.sales where business_id = $1)::date - 1,
                              greatest((select max(occurred_at) from public.sales where business_id = $1),
                                       (select max(occurred_at) from public.refunds where business_id = $1))::date + 1,
                              interval '1 day') d`, [business])).rows.map((r) => r.day);
    const groups = Array.from({ length: Math.ceil(stores.length / 10) }, (_, n) => stores.slice(n * 10, n * 10 + 10));
    let done = 0;
    await timed('retail: summaries', async () => {
      await atOnce(workers, groups.map((group) => () => inBatch(db, superuser, async (tx) => {
        const pairs = group.flatMap((store) => days.map((day) => [store, day] as const));
        await tx.query('select private.compute_sales_summaries($1, $2::uuid[], $3::date[])',
          [business, pairs.map(([store]) => store), pairs.map(([, day]) => day)]);
        done += group.length;
        log(`  retail summaries ${done} / ${stores.length} stores`);
      })));
    });
    // Each of these is one statement over the whole business (the monthly rollups alone took up to 358 s at
    // 10,000,000 lines), reading the loaded tables and writing its own: side by side they use both cores (ADR 0439).
    // Stock movements per day, inventory value per category and stock pairs (ADR 0162): their triggers did not run.
    await timed('retail: rollups and stock summaries', () => atOnce(workers, [
      () => inBatch(db, superuser, (tx) => tx.query('select private.rebuild_variant_rollups($1)', [business])),
      () => db.transaction((tx) => tx.query('select private.refresh_stock_summaries_base($1)', [business])),
      () => db.transaction((tx) => tx.query('select private.compute_stock_pairs($1)', [business])),
      () => inBatch(db, superuser, (tx) => tx.query('select private.rebuild_breakdown_months($1)', [business])),
    ]));
  } else {
    await timed('retail: summaries', () => db.query('select private.refresh_sales_summaries($1)', [business]));
    await timed('retail: stock summaries', () => db.query('select private.refresh_stock_summaries($1)', [business]));
  }
  // The search's word dictionary (ADR 0152): its triggers did not run in replica mode.
  await timed('retail: catalog words', () => db.query('select private.refresh_catalog_words($1)', [business]));
  // What autovacuum does on a live server, at once: the visibility map lets the reports' index-only scans skip
  // the table pages.
  // The summary tables too, with their statistics: a report planned before autovacuum reached them estimated one
  // row where there were millions (the first bench on a fresh 10,000,000-line set timed out on three cases).
  if (superuser) {
    await timed('retail: vacuum', () => db.exec(`vacuum ${BULK_TABLES.join(', ')}, public.stock_balances`));
    await timed('retail: vacuum summaries', () => db.exec(`vacuum (analyze) ${SUMMARY_TABLES.join(', ')}`));
  }
}

/** Products, variants, costs and barcodes in transactions of 30,000 variants; returns the parts (groups of 6 variants). */
async function loadCatalog(db: Db, options: RetailOptions, superuser: boolean, timed: Timed, log: (line: string) => void,
                           business: string): Promise<{ first: number; groups: number }[]> {
  const groupsTotal = Math.ceil(options.variants / 6);
  const groupsBatch = 5_000; // 30,000 variants a transaction
  const parts = Array.from({ length: Math.ceil(groupsTotal / groupsBatch) }, (_, n) => ({
    first: n * groupsBatch, groups: Math.min(groupsBatch, groupsTotal - n * groupsBatch),
  }));
  for (const part of parts) {
    await timed('retail: catalog', () => inBatch(db, superuser, (tx) => insertCatalog(tx, business, part.first, part.groups, options.variants)));
    log(`  retail catalog ${Math.min(options.variants, (part.first + part.groups) * 6).toLocaleString('en-US')} / ${options.variants.toLocaleString('en-US')} variants`);
  }
  return parts;
}

/** The catalog, opening stock, a year of sales, then balances, counters and shift totals. */
async function loadRetail(
  db: Db,
  options: RetailOptions,
  superuser: boolean,
  timed: Timed,
  log: (line: string) => void,
  business: string,
  owner: string,
): Promise<RetailReport> {
  const workers = workersOf(db, options);
  const parts = await loadCatalog(db, options, superuser, timed, log, business);
  // Opening stock after the whole catalog (its foreign keys hold without replica mode), in parallel on PostgreSQL:
  // at 100 stores it is 4,670,000 ledger rows.
  await timed('retail: opening stock', () =>
    atOnce(workers, parts.map((part) => () =>
      inBatch(db, superuser, (tx) => insertOpeningStock(tx, business, options.stores, options.variants, part.first * 6,
                                                          Math.min(options.variants, (part.first + part.groups) * 6))))));
  log('  retail opening stock');

  // The year ends yesterday (UTC), so every sale is in the past.
  const today = new Date(new Date().toISOString().slice(0, 10));
  const firstDay = new Date(today.getTime() - RETAIL_DAYS * DAY);
  let sales = 0;
  let saleLines = 0;
  let refunds = 0;
  // Batches are independent (receipt numbers, times and ids come from the plan; a shared shift is inserted by
  // whichever batch comes first, in shift id order, so two batches never wait on each other in a cycle): on
  // PostgreSQL several run at once, each on its own connection (at 10,000,000 lines one at a time was ~3,000
  // lines/s on the shared machine). PGlite has one connection, so one at a time there.
  await timed('retail: sales', () =>
    atOnce(workers, (function* () {
      for (const plan of salePlans(options, firstDay)) {
        yield async () => {
          const added = await inBatch(db, superuser, (tx) => insertSales(tx, business, owner, options, plan));
          saleLines += added.lines;
          refunds += added.refunds;
          sales += plan.ids.length;
          log(`  retail sales ${saleLines.toLocaleString('en-US')} / ${options.saleLines.toLocaleString('en-US')} lines`);
        };
      }
    })()));

  await timed('retail: balances and shifts', () =>
    inBatch(db, superuser, async (tx) => {
      // A restock receipt before the year where the sales would otherwise take a shelf below zero.
      await tx.query(
        `insert into public.stock_movements (business_id, store_id, variant_id, kind, qty, unit_cost, occurred_at,
                                             recorded_at, actor_id, reference_type, note)
         select $1, m.store_id, m.variant_id, 'receive', 24 - sum(m.qty), min(c.cost), now() - interval '370 days',
                now() - interval '370 days', $2, 'import', 'restock (seed)'
           from public.stock_movements m join public.variant_costs c on c.variant_id = m.variant_id
          where m.business_id = $1
          group by m.store_id, m.variant_id
         having sum(m.qty) < 4`,
        [business, owner],
      );
      await tx.query(
        `insert into public.stock_balances (business_id, store_id, variant_id, lot_id, qty)
         select $1, m.store_id, m.variant_id, null, sum(m.qty)
           from public.stock_movements m where m.business_id = $1
          group by m.store_id, m.variant_id`,
        [business],
      );
      await tx.query(
        `insert into private.register_counters (register_id, last_seq)
         select s.register_id, count(*) from public.sales s where s.business_id = $1 group by s.register_id
         on conflict (register_id) do update set last_seq = excluded.last_seq`,
        [business],
      );
      await tx.query(
        `update public.shifts sh
            set expected_cash = sh.opening_float + coalesce(e.cash, 0), counted_total = sh.opening_float + coalesce(e.cash, 0),
                difference = 0, counted = jsonb_build_object('1', sh.opening_float + coalesce(e.cash, 0))
           from (select x.shift_id, sum(t.amount) as cash
                   from public.sales x join public.sale_tenders t on t.sale_id = x.id and t.kind = 'cash'
                  where x.business_id = $1 group by x.shift_id) e
          where sh.business_id = $1 and e.shift_id = sh.id`,
        [business],
      );
      await tx.query(
        `insert into public.activity (business_id, store_id, kind, entity_type, after, at)
         select $1, m.store_id, 'stock.opening', 'store', jsonb_build_object('movements', count(*)), min(m.occurred_at)
           from public.stock_movements m where m.business_id = $1 and m.kind = 'opening' group by m.store_id`,
        [business],
      );
    }),
  );
  return { businessId: business, variants: options.variants, sales, saleLines, refunds };
}
