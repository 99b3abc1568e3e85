/**
 * The actors and writers of the report database tests (tests/db/report-*.test.ts): owner1's seeded business and
 * its two stores, requests made as a member (RLS on, as the gateway runs them), and sales, refunds and members
 * written through the same functions the registers and the team screens call. The helpers are bound to a Db and
 * a business read at each call, because the test file opens its database in beforeAll:
 *
 *   let db: Db; let business: string;
 *   const { asOwner, postSale } = reportWorld(() => ({ db, business }), { label: 'Summary' });
 *   beforeAll(async () => { ({ db, business } = await openReportDb()); }, 300_000);
 */
import { randomUUID } from 'node:crypto';
import { openDb } from '../../../supabase/local/db/open-db';
import type { Db, JwtClaims, QueryResult } from '../../../supabase/local/db/types';
import { seedUsers } from './seed-ids';

/** owner1 of supabase/seed.sql, who owns Fresh Corner Market (the business every report test writes to). */
export const OWNER1 = seedUsers.owner1.id;
/** Fresh Corner Market's Downtown store in seed.sql (catalog-world.ts has the same id but loads the HTTP stack). */
export const DOWNTOWN = '5a000000-0000-4000-8000-000000000001';
/** Fresh Corner Market's Riverside store in seed.sql (America/New_York). */
export const RIVERSIDE = '5a000000-0000-4000-8000-000000000002';

/** The JWT claims of a signed-in user, as the gateway hands them to the database. */
export const claimsOf = (sub: string): JwtClaims => ({ role: 'authenticated', sub, aud: 'authenticated' });
/** owner1's claims. */
export const ownerClaims: JwtClaims = claimsOf(OWNER1);
/** The claims of a new user (no row yet: add one with addMember). */
export const newUserClaims = (): JwtClaims => claimsOf(randomUUID());

/** An ISO timestamp n days before now (fractions too: daysAgo(5 / 24) is five hours ago). */
export const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString();

/** Opens the seeded database in memory (migrations and seed.sql) and finds owner1's business in it. */
export async function openReportDb(): Promise<{ db: Db; business: string }> {
  const db = await openDb({ memory: true });
  const business = (await db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [OWNER1]))
    .rows[0]?.id ?? '';
  return { db, business };
}

/** The database and business the helpers act on, read at each call. */
export type ReportTarget = () => { db: Db; business: string };

export interface ReportWorldOptions {
  /** First word of the names of the registers and members a file adds ('Summary', 'Pairs'...). Default 'Report'. */
  label?: string;
  /** The tender kind of a sale posted without tenders (amount 0: post_sale accepts it offline). Default 'card'. */
  tender?: 'card' | 'cash';
}

/** A plain item of the demo catalog: its variant, product, Downtown price (store price or its own) and tax rate. */
export interface ReportItem {
  id: string;
  product: string;
  price: number;
  rate: string;
}

/** A register and the shift opened on it. */
export interface Till {
  register: string;
  shift: string;
}

/** A posted sale and its lines in line order. */
export interface PostedSale {
  id: string;
  lines: { id: string }[];
}

export interface ReportWorld {
  /** Runs sql in one read-write request as the user of these claims (role authenticated, RLS applies). */
  as<T = Record<string, unknown>>(claims: JwtClaims, sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs sql in one read-write request as owner1. */
  asOwner<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** The first n plain items by SKU (no lots, sold each, stock tracked); categorised: only products with a category. */
  items(n: number, opts?: { categorised?: boolean }): Promise<ReportItem[]>;
  /** Adds a register to the store (receipt prefix and name from prefix) and opens a shift on it as owner1. */
  openRegister(store: string, prefix: string): Promise<Till>;
  /** Posts a sale as owner1 through post_sale: offline with one tender of amount 0 unless extra says otherwise. */
  postSale(at: Till, lines: { variant_id: string; qty: number }[], extra?: Record<string, unknown>): Promise<PostedSale>;
  /** Posts a refund as owner1 through post_refund (a new id added to the payload). */
  refund(payload: Record<string, unknown>): Promise<QueryResult>;
  /** Adds the user of these claims as a member of the business; not of all stores: of Downtown only. */
  addMember(claims: JwtClaims, role: string, allStores: boolean, email: string): Promise<void>;
}

/** The report tests' helpers, bound to the database and business target() returns when they run. */
export function reportWorld(target: ReportTarget, options: ReportWorldOptions = {}): ReportWorld {
  const label = options.label ?? 'Report';
  const tender = options.tender ?? 'card';
  const db = () => target().db;
  const business = () => target().business;

  const as = <T = Record<string, unknown>>(claims: JwtClaims, sql: string, params: unknown[] = []) =>
    db().asRequest({ role: 'authenticated', claims, readOnly: false, method: 'POST' }, (tx) => tx.query<T>(sql, params));
  const asOwner = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => as<T>(ownerClaims, sql, params);

  return {
    as,
    asOwner,

    async items(n, opts = {}) {
      return (await db().query<ReportItem>(
        `select v.id, p.id as product, coalesce(sp.price, v.price)::int as price,
                coalesce(p.tax_rate, st.default_tax_rate)::text as rate
           from public.variants v join public.products p on p.id = v.product_id
           join public.stores st on st.id = $1
           left join public.store_prices sp on sp.variant_id = v.id and sp.store_id = st.id
          where v.business_id = $2 and not p.has_lots and p.unit = 'each' and p.track_stock
            ${opts.categorised ? 'and p.category_id is not null' : ''}
          order by v.sku limit $3`, [DOWNTOWN, business(), n])).rows;
    },

    async openRegister(store, prefix) {
      const [reg] = (await db().query<{ id: string }>(
        `insert into public.registers (business_id, store_id, name, receipt_prefix) values ($1, $2, $3, $4) returning id`,
        [business(), store, `${label} ${prefix}`, prefix])).rows;
      const shift = (await asOwner<{ s: { id: string } }>('select public.open_shift($1, 0) as s', [reg?.id])).rows[0]?.s.id ?? '';
      // A till open since long ago: offline sales and refunds keep their back dates inside their shift (ADR 0171).
      await db().query(`update public.shifts set opened_at = now() - interval '400 days' where id = $1`, [shift]);
      return { register: reg?.id ?? '', shift };
    },

    async postSale(at, lines, extra = {}) {
      const payload = { id: randomUUID(), register_id: at.register, shift_id: at.shift, lines,
        tenders: [{ kind: tender, amount: 0 }], offline: true, ...extra };
      const sale = (await asOwner<{ s: { id: string } }>('select public.post_sale($1::jsonb) as s', [JSON.stringify(payload)]))
        .rows[0]?.s;
      const saleLines = (await db().query<{ id: string }>(
        'select id from public.sale_lines where sale_id = $1 order by line_no', [sale?.id])).rows;
      return { id: sale?.id ?? '', lines: saleLines };
    },

    async refund(payload) {
      // Into the sale's own shift while it is open, else a till open in the sale's store, unless the payload names
      // one (a refund is made at a till, ADR 0171).
      const [sale] = (await db().query<{ shift_id: string }>(
        `select coalesce((select sh.id from public.shifts sh where sh.id = s.shift_id and sh.closed_at is null),
                         (select sh.id from public.shifts sh where sh.store_id = s.store_id and sh.closed_at is null
                           order by sh.opened_at limit 1), s.shift_id) as shift_id
           from public.sales s where s.id = $1`, [payload.sale_id])).rows;
      return asOwner('select public.post_refund($1::jsonb)', [JSON.stringify({ id: randomUUID(), shift_id: sale?.shift_id, ...payload })]);
    },

    async addMember(claims, role, allStores, email) {
      await db().query(
        `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
         values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '{}'::jsonb,
                 jsonb_build_object('full_name', $3::text), now(), now())`, [claims.sub, email, `${label} ${role}`]);
      await db().query(`insert into public.business_members (business_id, user_id, role, all_stores) values ($1, $2, $3, $4)`,
        [business(), claims.sub, role, allStores]);
      if (!allStores) {
        await db().query(`insert into public.member_store_access (business_id, user_id, store_id) values ($1, $2, $3)`,
          [business(), claims.sub, DOWNTOWN]);
      }
    },
  };
}
