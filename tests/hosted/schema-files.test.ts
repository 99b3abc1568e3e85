/**
 * supabase/schemas (the declarative schema, docs/adr/0185) defines exactly what the migrations ship: one
 * hosted-shaped PostgreSQL 15 gets the migrations through `supabase db push`, another the schema files in
 * config.toml's order, and their catalogs must match in every table, column, constraint, index, policy,
 * function (bodies included), trigger, grant, comment and publication.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedProject } from '../../scripts/hosted-db/hosted-project';
import type { SchemaProject } from '../../scripts/hosted-db/schema-project';
import { startBoth } from '../../scripts/hosted-db/start-both';
import { diffSnapshots } from '../../scripts/schema-diff/catalog-diff';
import { snapshotCatalog } from '../../scripts/schema-diff/catalog-snapshot';

let migrations: HostedProject;
let schema: SchemaProject;

beforeAll(async () => {
  ({ migrations, schema } = await startBoth());
});

afterAll(async () => {
  await Promise.all([migrations?.stop(), schema?.stop()]);
});

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const snapshotOf = (url: string) => withClient(url, (client) => snapshotCatalog(client));

describe('supabase/schemas', () => {
  it('applies to a hosted-shaped server and defines what the migrations define, to the last grant and body', async () => {
    const [fromMigrations, fromSchema] = await Promise.all([snapshotOf(migrations.postgresUrl), snapshotOf(schema.postgresUrl)]);
    const difference = diffSnapshots({ label: 'migrations', ...fromMigrations }, { label: 'supabase/schemas', ...fromSchema });
    if (difference) expect.fail(`supabase/schemas and supabase/migrations differ (see README, Contributing):\n${difference}`);
    // Not two empty catalogs: the comparison saw the project's objects.
    expect(fromMigrations.snapshot.tables?.length).toBeGreaterThan(60);
    expect(fromMigrations.snapshot.functions?.length).toBeGreaterThan(200);
    expect(fromMigrations.snapshot.policies?.length).toBeGreaterThan(50);
  });

  it('notices one change of each kind on one side', async () => {
    const baseline = await snapshotOf(migrations.postgresUrl);
    const changed = await withClient(schema.postgresUrl, async (client) => {
      await client.query('begin');
      try {
        for (const change of [
          'revoke select on public.shifts from authenticated',
          `create or replace function public.pos_clock() returns timestamptz language sql stable
             set search_path = '' as $$ select pg_catalog.now() - interval '1 second' $$`,
          'alter table public.shifts alter column opening_float set default 1',
          'drop index public.shifts_cashier_idx',
          `comment on policy "customers: members read" on public.customers is 'probe'`,
          'alter table public.sales disable trigger sales_summaries_inserted',
          'create publication schema_probe for table public.sales',
        ]) {
          await client.query(change);
        }
        return await snapshotCatalog(client);
      } finally {
        await client.query('rollback');
      }
    });
    const difference = diffSnapshots({ label: 'migrations', ...baseline }, { label: 'changed', ...changed });
    expect(difference).toContain('only in migrations: table public.shifts: authenticated select');
    expect(difference).toMatch(/body of public\.pos_clock\(\) differs at line 1/);
    expect(difference).toMatch(/only in changed: public\.shifts\.opening_float #\d+ bigint not null default 1/);
    expect(difference).toContain('only in migrations: CREATE INDEX shifts_cashier_idx ON public.shifts USING btree (cashier_id)');
    expect(difference).toContain('only in changed: policy customers: members read on table public.customers: probe');
    expect(difference).toMatch(/only in changed: CREATE TRIGGER sales_summaries_inserted .* enabled D/);
    expect(difference).toMatch(/only in changed: schema_probe .* tables public\.sales/);
  });
});
