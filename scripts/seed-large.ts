/**
 * `npm run seed:large`: fills the local stack's database with a platform-sized data set, to see the admin
 * panel (and everything else) at scale: by default 100,000 users with profiles and plans, 1,000,000 billing
 * rows and 20,000 support tickets.
 *
 *   npm run seed:large                       # into .storewise/ (the default data folder)
 *   npm run seed:large -- --users 10000      # smaller; billing and tickets scale with --users unless given
 *   npm run seed:large -- --data-dir DIR     # another PGlite folder
 *   DATABASE_URL=postgres://... npm run seed:large
 *
 * Rows go in batches through `unnest` arrays (one statement per table per batch: about 100x faster than
 * single-row inserts on PGlite). Profiles are inserted in bulk, not by the per-row sign-up trigger. As a
 * superuser (PGlite, a local cluster) each batch runs with session_replication_role = replica, which skips
 * triggers and foreign-key checks; otherwise only the sign-up trigger is switched off and the
 * statement-level admin-total triggers run once per statement. private.refresh_admin_totals()
 * recomputes the totals at the end either way.
 *
 * The retail data set (issues 12 and 14, scripts/seed-large/retail.ts) comes after: one business with 10 stores,
 * 100,000 variants and a year of sales (1,000,000 sale lines with weekly and yearly seasonality, costs, refunds):
 *
 *   npm run seed:large -- --retail-variants 10000 --sale-lines 100000   # a small version
 *   npm run seed:large -- --users 0                                       # the retail set only
 *   npm run seed:large -- --sale-lines 0 --retail-variants 0              # no retail set
 *   npm run seed:large -- --users 0 --sale-lines 10000000 --stores 100    # a chain (issue 32): 10M lines, 100 stores
 *
 * Every generated user shares one bcrypt hash (computed once, not per user) of the documented password
 * LARGE_SEED_PASSWORD, so any of them can sign in for load tests: shop<N>@large.storewise.test.
 * Running it again appends another set (numbering continues).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import bcrypt from 'bcryptjs';
import type { Db, Queryable } from '../supabase/local/db/types';
import { defaultRetailOptions, seedRetail, type RetailReport } from './seed-large/retail';

export const LARGE_SEED_PASSWORD = 'storewise-large-seed';
export const LARGE_SEED_EMAIL_DOMAIN = 'large.storewise.test';

export interface SeedLargeOptions {
  users: number;
  billing: number;
  tickets: number;
  /** Users per transaction; billing rows and tickets of those users go in the same transaction. */
  batchSize: number;
  /** The retail business: variants (0: none), stores and sale lines over a year. */
  retailVariants: number;
  retailStores: number;
  saleLines: number;
}

export const defaultSeedLargeOptions: SeedLargeOptions = {
  users: 100_000,
  billing: 1_000_000,
  tickets: 20_000,
  batchSize: 10_000,
  retailVariants: defaultRetailOptions.variants,
  retailStores: defaultRetailOptions.stores,
  saleLines: defaultRetailOptions.saleLines,
};

export interface SeedLargeReport {
  users: number;
  billing: number;
  tickets: number;
  retail: RetailReport | null;
  /** Milliseconds per phase, summed over batches. */
  timings: Record<string, number>;
  totalMs: number;
}

// ---------------------------------------------------------------------------------------------------
// Deterministic data: the same index always gives the same shop, so runs are comparable.

const firstNames = [
  'Olivia', 'Liam', 'Amara', 'Noah', 'Sofia', 'Mateo', 'Aisha', 'Kenji', 'Fatima', 'Lucas', 'Priya', 'Omar',
  'Elena', 'Hiroshi', 'Zara', 'Diego', 'Chloe', 'Tariq', 'Ingrid', 'Kwame', 'Mei', 'Rafael', 'Leila', 'Sven',
  'Nadia', 'Arjun', 'Grace', 'Yusuf', 'Hannah', 'Mihai', 'Ava', 'Jonas', 'Lina', 'Emeka', 'Rosa', 'Felix',
  'Anika', 'Tomas', 'Maya', 'Idris',
];
const lastNames = [
  'Hartmann', 'Okafor', 'Nakamura', 'Fernandez', 'Rossi', 'Kowalski', 'Haddad', 'Johansson', 'Mensah', 'Dubois',
  'Patel', 'Novak', 'Castillo', 'Lindqvist', 'Abernathy', 'Moreau', 'Tanaka', 'Oyelaran', 'Schneider', 'Petrov',
  'Richardson', 'Alvarez', 'Kim', 'Nguyen', 'Osei', 'Bergstrom', 'Costa', 'Van der Berg', 'Walsh', 'Yilmaz',
  'Fitzgerald', 'Ivanova', 'Morales', 'Chen', 'Adeyemi', 'Larsen', 'Santos', 'Horvath', 'Quinn', 'Delacroix',
  'Takahashi', 'Murphy', 'Eriksen', 'Gallagher', 'Mbeki', 'Silva', 'Kaur', 'Brennan', 'Sorensen', 'Ramirez',
];
const businessKinds = [
  { type: 'Grocery', words: ['Market', 'Grocers', 'Fresh Foods', 'Pantry'] },
  { type: 'Clothing', words: ['Boutique', 'Outfitters', 'Threads', 'Tailors'] },
  { type: 'Medical', words: ['Pharmacy', 'Chemists', 'Health Store', 'Apothecary'] },
  { type: 'Electronics', words: ['Electronics', 'Gadgets', 'Tech Hub', 'Circuits'] },
  { type: 'Others', words: ['General Store', 'Emporium', 'Trading Co.', 'Corner Shop'] },
] as const;
const plans = [
  { name: 'Starter', price: 9.99 },
  { name: 'Growth', price: 29.99 },
  { name: 'Pro', price: 99.99 },
  { name: 'Enterprise', price: 499 },
  { name: 'Free', price: 0 },
] as const;
const planStatuses = ['active', 'active', 'active', 'trialing', 'past_due', 'canceled', 'expired'] as const;
const billingStatuses = ['paid', 'paid', 'paid', 'paid', 'paid', 'paid', 'pending', 'failed', 'refunded'] as const;
const ticketStatuses = ['open', 'open', 'in_progress', 'resolved', 'closed'] as const;
const ticketPriorities = ['low', 'medium', 'medium', 'high', 'urgent'] as const;
const ticketSubjects = [
  'Cannot print receipts', 'Inventory count is off', 'How do I add a second store?', 'Invoice question',
  'Barcode scanner not detected', 'Change my plan', 'Staff member cannot sign in', 'Export sales to CSV',
];

/** mulberry32: a tiny seeded PRNG, so the data set is reproducible. */
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

// The index is always inside the list (random() < 1).
const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const DAY = 86_400_000;
const SPAN_DAYS = 3 * 365;

interface UserBatch {
  ids: string[];
  emails: string[];
  meta: string[];
  createdAt: string[];
  fullNames: string[];
  businessNames: string[];
  businessTypes: string[];
  phones: string[];
  businessEmails: string[];
}

function makeUsers(first: number, count: number, now: number): UserBatch {
  const batch: UserBatch = {
    ids: [], emails: [], meta: [], createdAt: [], fullNames: [], businessNames: [], businessTypes: [], phones: [],
    businessEmails: [],
  };
  for (let n = first; n < first + count; n += 1) {
    const random = prng(n * 7919 + 1);
    const fullName = `${pick(random, firstNames)} ${pick(random, lastNames)}`;
    const kind = pick(random, businessKinds);
    const businessName = `${fullName.split(' ').at(-1)} ${pick(random, kind.words)} #${n}`;
    const email = `shop${n}@${LARGE_SEED_EMAIL_DOMAIN}`;
    const phone = `+1 555 ${String(100 + (n % 900)).padStart(3, '0')} ${String(n % 10_000).padStart(4, '0')}`;
    const createdAt = new Date(now - Math.floor(random() * SPAN_DAYS * DAY) - DAY).toISOString();
    batch.ids.push(randomUUID());
    batch.emails.push(email);
    batch.fullNames.push(fullName);
    batch.businessNames.push(businessName);
    batch.businessTypes.push(kind.type);
    batch.phones.push(phone);
    batch.businessEmails.push(`owner@shop${n}.example`);
    batch.createdAt.push(createdAt);
    batch.meta.push(
      JSON.stringify({ full_name: fullName, business_name: businessName, business_type: kind.type, phone }),
    );
  }
  return batch;
}

/** How many of `total` rows belong to user number `index` of `users`, spread evenly. */
const shareOf = (total: number, users: number, index: number): number =>
  Math.floor(((index + 1) * total) / users) - Math.floor((index * total) / users);

// ---------------------------------------------------------------------------------------------------

async function timed(timings: Record<string, number>, phase: string, fn: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await fn();
  timings[phase] = (timings[phase] ?? 0) + performance.now() - started;
}

async function insertBatch(
  tx: Queryable,
  batch: UserBatch,
  firstIndex: number,
  options: SeedLargeOptions,
  passwordHash: string,
  now: number,
  timings: Record<string, number>,
): Promise<{ billing: number; tickets: number }> {
  await timed(timings, 'auth.users', () =>
    tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
                               confirmation_token, recovery_token, email_change_token_new, email_change,
                               email_change_token_current, phone_change, phone_change_token, reauthentication_token)
       select '00000000-0000-0000-0000-000000000000'::uuid, u.id, 'authenticated', 'authenticated', u.email, $5,
              u.created_at, '{"provider":"email","providers":["email"]}'::jsonb, u.meta, u.created_at, u.created_at,
              '', '', '', '', '', '', '', ''
         from unnest($1::uuid[], $2::text[], $3::jsonb[], $4::timestamptz[]) as u (id, email, meta, created_at)`,
      [batch.ids, batch.emails, batch.meta, batch.createdAt, passwordHash],
    ),
  );
  await timed(timings, 'auth.identities', () =>
    tx.query(
      `insert into auth.identities (id, provider_id, user_id, identity_data, provider, created_at, updated_at)
       select u.id, u.id::text, u.id,
              jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
              'email', u.created_at, u.created_at
         from unnest($1::uuid[], $2::text[], $3::timestamptz[]) as u (id, email, created_at)`,
      [batch.ids, batch.emails, batch.createdAt],
    ),
  );
  await timed(timings, 'profiles', () =>
    tx.query(
      `insert into public.profiles (id, full_name, business_name, business_type, phone, business_email, created_at, updated_at)
       select u.id, u.full_name, u.business_name, u.business_type, u.phone, u.business_email, u.created_at, u.created_at
         from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
           as u (id, full_name, business_name, business_type, phone, business_email, created_at)`,
      [
        batch.ids, batch.fullNames, batch.businessNames, batch.businessTypes, batch.phones, batch.businessEmails,
        batch.createdAt,
      ],
    ),
  );

  // One plan per user, created a little after the account.
  const plan = { userIds: [] as string[], names: [] as string[], prices: [] as number[], cycles: [] as string[],
    statuses: [] as string[], autoRenew: [] as boolean[], createdAt: [] as string[], nextBilling: [] as string[] };
  const bill = { userIds: [] as string[], amounts: [] as number[], dates: [] as string[], statuses: [] as string[],
    descriptions: [] as string[] };
  const ticket = { userIds: [] as string[], emails: [] as string[], subjects: [] as string[], statuses: [] as string[],
    priorities: [] as string[], createdAt: [] as string[] };

  batch.ids.forEach((userId, offset) => {
    const index = firstIndex + offset;
    const random = prng(index * 104_729 + 17);
    const created = Date.parse(batch.createdAt[offset] ?? '');
    const chosen = pick(random, plans);
    const cycle = random() < 0.8 ? 'annual' : 'monthly';
    const planCreated = created + Math.floor(random() * DAY);
    plan.userIds.push(userId);
    plan.names.push(chosen.name);
    plan.prices.push(chosen.price);
    plan.cycles.push(cycle);
    plan.statuses.push(pick(random, planStatuses));
    plan.autoRenew.push(random() < 0.7);
    plan.createdAt.push(new Date(planCreated).toISOString());
    plan.nextBilling.push(new Date(now + Math.floor(random() * 365) * DAY).toISOString());

    const bills = shareOf(options.billing, options.users, index);
    for (let b = 0; b < bills; b += 1) {
      const date = planCreated + Math.floor(random() * Math.max(now - planCreated, DAY));
      bill.userIds.push(userId);
      // Cents, so the total is exact in numeric(12, 2).
      bill.amounts.push(chosen.price > 0 ? chosen.price : Math.round(random() * 5000) / 100);
      bill.dates.push(new Date(date).toISOString());
      bill.statuses.push(pick(random, billingStatuses));
      bill.descriptions.push(`${chosen.name} plan (${cycle})`);
    }
    const tickets = shareOf(options.tickets, options.users, index);
    for (let t = 0; t < tickets; t += 1) {
      ticket.userIds.push(userId);
      ticket.emails.push(batch.emails[offset] ?? '');
      ticket.subjects.push(pick(random, ticketSubjects));
      ticket.statuses.push(pick(random, ticketStatuses));
      ticket.priorities.push(pick(random, ticketPriorities));
      ticket.createdAt.push(new Date(created + Math.floor(random() * Math.max(now - created, DAY))).toISOString());
    }
  });

  await timed(timings, 'user_plans', () =>
    tx.query(
      `insert into public.user_plans (user_id, plan_name, price, billing_cycle, status, auto_renew, started_at,
                                      next_billing_date, created_at, updated_at)
       select p.user_id, p.plan_name, p.price, p.billing_cycle, p.status, p.auto_renew, p.created_at,
              p.next_billing_date, p.created_at, p.created_at
         from unnest($1::uuid[], $2::text[], $3::numeric[], $4::text[], $5::text[], $6::boolean[], $7::timestamptz[],
                     $8::timestamptz[])
           as p (user_id, plan_name, price, billing_cycle, status, auto_renew, created_at, next_billing_date)`,
      [plan.userIds, plan.names, plan.prices, plan.cycles, plan.statuses, plan.autoRenew, plan.createdAt, plan.nextBilling],
    ),
  );
  if (bill.userIds.length > 0) {
    await timed(timings, 'billing_history', () =>
      tx.query(
        `insert into public.billing_history (user_id, amount, date, status, description, created_at)
         select b.user_id, b.amount, b.date, b.status, b.description, b.date
           from unnest($1::uuid[], $2::numeric[], $3::timestamptz[], $4::text[], $5::text[])
             as b (user_id, amount, date, status, description)`,
        [bill.userIds, bill.amounts, bill.dates, bill.statuses, bill.descriptions],
      ),
    );
  }
  if (ticket.userIds.length > 0) {
    // The owner's email and "waiting since" the ticket was filed, as the before-insert trigger sets them on a real
    // ticket (replica mode skips it; otherwise it writes the same values). Generated owners have no business.
    await timed(timings, 'support_tickets', () =>
      tx.query(
        `insert into public.support_tickets (user_id, subject, message, status, priority, created_at, updated_at,
                                             owner_email, waiting_since)
         select t.user_id, t.subject, 'Generated by npm run seed:large.', t.status, t.priority, t.created_at,
                t.created_at, t.owner_email, t.created_at
           from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[])
             as t (user_id, subject, status, priority, created_at, owner_email)`,
        [ticket.userIds, ticket.subjects, ticket.statuses, ticket.priorities, ticket.createdAt, ticket.emails],
      ),
    );
  }
  return { billing: bill.userIds.length, tickets: ticket.userIds.length };
}

/**
 * What the support desk's triggers keep for each ticket and replica mode skipped (docs/adr/0121, 0154): the queue
 * search rows and the queue counts. Both functions are idempotent (they add missing search rows and recount), and
 * the trigram index keeps no pending list, so the desk is ready to search at once. Vacuum sets the visibility map,
 * which PGlite (no autovacuum) would otherwise never do, so the queue's index walks read no table pages.
 */
async function completeTickets(db: Db, timings: Record<string, number>): Promise<void> {
  await timed(timings, 'support_ticket_search', () => db.query('select private.refresh_support_ticket_search()'));
  await timed(timings, 'support_queue_counts', () => db.query('select private.refresh_support_queue_counts()'));
  await timed(timings, 'vacuum tickets', () =>
    db.exec('vacuum public.support_tickets, private.support_ticket_search'));
}

/** Generates the data set into an open database (migrations applied) and refreshes the admin totals. */
export async function seedLarge(
  db: Db,
  options: SeedLargeOptions = defaultSeedLargeOptions,
  log: (line: string) => void = () => {},
): Promise<SeedLargeReport> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  // One hash for every generated user: bcrypt per user would take minutes for 100,000 users.
  const passwordHash = await bcrypt.hash(LARGE_SEED_PASSWORD, 10);
  const now = Date.now();
  const existing = await db.query<{ n: number }>(
    `select count(*)::int as n from auth.users where email like $1`,
    [`%@${LARGE_SEED_EMAIL_DOMAIN}`],
  );
  const base = existing.rows[0]?.n ?? 0;
  const role = await db.query<{ superuser: boolean }>(
    'select rolsuper as superuser from pg_catalog.pg_roles where rolname = current_user',
  );
  const superuser = role.rows[0]?.superuser === true;

  let billing = 0;
  let tickets = 0;
  for (let done = 0; done < options.users; done += options.batchSize) {
    const count = Math.min(options.batchSize, options.users - done);
    const batch = makeUsers(base + done + 1, count, now);
    const added = await db.transaction(async (tx) => {
      if (superuser) {
        // Replica mode skips every trigger, including the foreign-key checks, which cost about two thirds
        // of the insert time: the rows are consistent by construction (each batch inserts its own users
        // first), and the totals are recomputed below. Local to this transaction.
        await tx.query('set local session_replication_role = replica');
      } else {
        // The sign-up trigger would insert the profiles one by one; they are inserted in bulk below.
        // Inside the transaction, so a failed batch leaves the trigger on.
        await tx.query('alter table auth.users disable trigger on_auth_user_created');
      }
      const result = await insertBatch(tx, batch, done, options, passwordHash, now, timings);
      if (!superuser) await tx.query('alter table auth.users enable trigger on_auth_user_created');
      return result;
    });
    billing += added.billing;
    tickets += added.tickets;
    log(`  ${(done + count).toLocaleString('en-US')} / ${options.users.toLocaleString('en-US')} users`);
  }
  if (options.users > 0) {
    await timed(timings, 'refresh_admin_totals', () => db.query('select private.refresh_admin_totals()'));
  }
  if (tickets > 0) await completeTickets(db, timings);
  let retail: RetailReport | null = null;
  if (options.retailVariants > 0) {
    retail = await seedRetail(
      db,
      { variants: options.retailVariants, stores: Math.max(1, options.retailStores), saleLines: options.saleLines,
        salesBatch: defaultRetailOptions.salesBatch },
      passwordHash,
      superuser,
      (phase, fn) => timed(timings, phase, fn),
      log,
    );
  }
  await timed(timings, 'analyze', () => db.exec('analyze'));
  return { users: options.users, billing, tickets, retail, timings, totalMs: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------------
// Command line.

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value.replace(/[_,]/g, ''));
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a whole number, got "${value}"`);
  return parsed;
}

/** Options from argv; billing and tickets keep the default ratio to users unless given. */
export function parseSeedLargeArgs(argv: string[]): SeedLargeOptions & { dataDir?: string; memory: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      users: { type: 'string' },
      billing: { type: 'string' },
      tickets: { type: 'string' },
      batch: { type: 'string' },
      'retail-variants': { type: 'string' },
      'retail-stores': { type: 'string' },
      /** The same as --retail-stores (the wording: --sale-lines 10000000 --stores 100). */
      stores: { type: 'string' },
      'sale-lines': { type: 'string' },
      'data-dir': { type: 'string' },
      memory: { type: 'boolean', default: false },
    },
  });
  const d = defaultSeedLargeOptions;
  const users = count(values.users, 'users', d.users);
  const retailVariants = count(values['retail-variants'], 'retail-variants', d.retailVariants);
  if (users < 1 && retailVariants < 1) throw new Error('--users or --retail-variants must be at least 1');
  return {
    users,
    billing: count(values.billing, 'billing', Math.round((users * d.billing) / d.users)),
    tickets: count(values.tickets, 'tickets', Math.round((users * d.tickets) / d.users)),
    batchSize: Math.max(1, count(values.batch, 'batch', d.batchSize)),
    retailVariants,
    retailStores: count(values['retail-stores'] ?? values.stores, 'retail-stores', d.retailStores),
    // A year of sales scales with the catalog unless given (10 lines a variant).
    saleLines: count(values['sale-lines'], 'sale-lines', Math.round((retailVariants * d.saleLines) / d.retailVariants)),
    dataDir: values['data-dir'],
    memory: values.memory ?? false,
  };
}

function formatReport(report: SeedLargeReport): string {
  const phases = Object.entries(report.timings)
    .map(([phase, ms]) => `  ${phase.padEnd(22)} ${(ms / 1000).toFixed(1).padStart(7)} s`)
    .join('\n');
  return (
    `Inserted ${report.users.toLocaleString('en-US')} users with profiles and plans, ` +
    `${report.billing.toLocaleString('en-US')} billing rows, ${report.tickets.toLocaleString('en-US')} tickets ` +
    (report.retail?.skipped ? `; retail set skipped: ${report.retail.skipped}` : '') +
    (report.retail && !report.retail.skipped
      ? `; retail: ${report.retail.variants.toLocaleString('en-US')} variants, ${report.retail.sales.toLocaleString('en-US')} sales ` +
        `with ${report.retail.saleLines.toLocaleString('en-US')} lines, ${report.retail.refunds.toLocaleString('en-US')} refunds`
      : '') +
    ` in ${(report.totalMs / 1000).toFixed(1)} s:\n${phases}`
  );
}

async function main(): Promise<void> {
  const options = parseSeedLargeArgs(process.argv.slice(2));
  const { openDb } = await import('../supabase/local/db/open-db');
  const { DataDirLockedError } = await import('../supabase/local/db/lock-file');
  let db;
  try {
    db = await openDb({ dataDir: options.dataDir, memory: options.memory });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(
        `Storewise: the local stack is running on ${error.dataDir} (pid ${error.pid}). ` +
          'Stop it first (Ctrl-C in its terminal), then run npm run seed:large again.',
      );
      process.exit(1);
    }
    throw error;
  }
  try {
    console.log(
      `Seeding ${db.location} (${db.kind}): ${options.users.toLocaleString('en-US')} users, ` +
        `${options.billing.toLocaleString('en-US')} billing rows, ${options.tickets.toLocaleString('en-US')} tickets, ` +
        `retail: ${options.retailVariants.toLocaleString('en-US')} variants in ${options.retailStores} stores, ${options.saleLines.toLocaleString('en-US')} sale lines...`,
    );
    const report = await seedLarge(db, options, (line) => console.log(line));
    console.log(formatReport(report));
    console.log(`Generated users sign in as shop<N>@${LARGE_SEED_EMAIL_DOMAIN} with password ${LARGE_SEED_PASSWORD}.`);
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
