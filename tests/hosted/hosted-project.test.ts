/**
 * The migrations and the seed as a hosted Supabase project takes them today (issue 10, findings 14-16):
 * the real CLI (`supabase db push`, `db lint`, `gen types`) against a PostgreSQL 15 server shaped like
 * hosted (scripts/hosted-db): postgres is no superuser and nothing in public is granted automatically.
 * Calls go through the authenticator login with SET LOCAL ROLE and the JWT claims, as PostgREST makes them.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostedProject, type HostedProject } from '../../scripts/hosted-db/hosted-project';
import { runSupabase } from '../../scripts/hosted-db/supabase-cli';
import { databaseTypesFile, generateDatabaseTypes } from '../../scripts/gen-types';
import { anonReadableFunctions } from '../db/support/lint-rules';
import { seedUsers } from '../db/support/seed-ids';

let project: HostedProject;

beforeAll(async () => {
  project = await startHostedProject({ seed: true });
});

afterAll(async () => {
  await project?.stop();
});

type Role = 'anon' | 'authenticated' | 'service_role';

/** One PostgREST-style transaction: authenticator switches to the JWT's role and sees its claims. */
async function asApi<T>(role: Role, sub: string | null, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: project.server.url('authenticator') });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`set local role ${role}`);
    await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ role, ...(sub ? { sub } : {}) })]);
    const result = await fn(client);
    await client.query('commit');
    return result;
  } finally {
    await client.end();
  }
}

function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );
}

describe('supabase db push of the migrations and the seed', () => {
  it('loads config.toml without a deprecated or unsupported setting, and applies everything', () => {
    const output = project.push.stdout + project.push.stderr;
    expect(output).not.toMatch(/deprecated|no longer supported/i);
    expect(output).toMatch(/Applying migration 20251101000000_core_schema\.sql/);
    expect(output).toMatch(/Seeding data from supabase\/seed\.sql/);
  });

  it('leaves postgres without superuser and public without automatic grants, as hosted', async () => {
    const client = new pg.Client({ connectionString: project.postgresUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ rolsuper: boolean }>(`select rolsuper from pg_roles where rolname = current_user`);
      expect(rows).toEqual([{ rolsuper: false }]);
      await client.query('begin');
      await client.query('create table public.hosted_grant_probe (id int)');
      const grants = await client.query(
        `select grantee from information_schema.role_table_grants where table_name = 'hosted_grant_probe' and grantee <> 'postgres'`,
      );
      await client.query('rollback');
      expect(grants.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});

describe('the grants as hosted sees them', () => {
  it('closes every table and function to anon (PUBLIC keeps EXECUTE on new functions) and opens every table to the service role', async () => {
    const client = new pg.Client({ connectionString: project.postgresUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ problem: string }>(`
        select format('anon executes %s', p.oid::regprocedure) as problem
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname in ('public', 'private') and has_function_privilege('anon', p.oid, 'execute')
           and not (n.nspname = 'public' and p.oid::regprocedure::text = any ($1::text[]))
        union all
        select format('anon reads %I.%I', n.nspname, c.relname)
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname in ('public', 'private') and c.relkind in ('r', 'v') and has_table_privilege('anon', c.oid, 'select')
        union all
        select format('service_role cannot read public.%I', c.relname)
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'v') and not has_table_privilege('service_role', c.oid, 'select')
        order by 1`, [anonReadableFunctions]);
      expect(rows.map((row) => row.problem)).toEqual([]);
    } finally {
      await client.end();
    }
  });
});

describe('the paths that only the service role writes', () => {
  it('lets the service role write billing history and payment methods, and count for the back office', async () => {
    const counts = await asApi('service_role', null, async (client) => {
      await client.query(
        `insert into public.billing_history (user_id, amount, status, description) values ($1, 12.5, 'paid', 'hosted check')`,
        [seedUsers.owner1.id],
      );
      await client.query(`insert into public.payment_methods (user_id, type, last_four) values ($1, 'visa', '4242')`, [
        seedUsers.owner3.id,
      ]);
      const { rows } = await client.query<{ profiles: number; billing: number }>(
        `select (select count(*) from public.profiles)::int as profiles, (select count(*) from public.billing_history)::int as billing`,
      );
      return rows[0];
    });
    expect(counts).toEqual({ profiles: 8, billing: 10 });
  });

  it('lets an owner read their own billing rows only', async () => {
    const rows = await asApi('authenticated', seedUsers.owner1.id, async (client) =>
      (await client.query<{ user_id: string; description: string }>('select user_id, description from public.billing_history')).rows,
    );
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((row) => row.user_id))).toEqual(new Set([seedUsers.owner1.id]));
    expect(rows.map((row) => row.description)).toContain('hosted check');
  });

  it('gives the admin the totals including the new payment, and refuses anon', async () => {
    const overview = await asApi('authenticated', seedUsers.admin.id, async (client) =>
      (await client.query<{ total_profiles: string; total_revenue: string }>('select * from public.admin_overview()')).rows[0],
    );
    expect(overview).toMatchObject({ total_profiles: '8', total_revenue: '542.21' });
    expect(await errorCode(asApi('anon', null, (client) => client.query('select id from public.billing_history')))).toBe('42501');
  });
});

describe('supabase db lint', () => {
  // Errors only: plpgsql_check's warnings (an OUT column filled by dynamic SQL, say) are advice, not failures.
  const lint = () =>
    runSupabase(['db', 'lint', `--remote=${project.postgresUrl}`, '--level', 'error', '--fail-on', 'error', '--output-format', 'json']);

  it('reports no error on the migrated schema', async () => {
    const result = await lint();
    expect(JSON.parse(result.stdout)).toMatchObject({ results: [] });
    expect(result.code).toBe(0);
  });

  it('reports a function that references a missing table (the lint can fail)', async () => {
    const client = new pg.Client({ connectionString: project.postgresUrl });
    await client.connect();
    try {
      await client.query(`create function public.hosted_lint_probe() returns int language plpgsql set search_path = ''
                          as $$ begin return (select count(*) from public.no_such_table); end $$`);
      const result = await lint();
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toMatch(/hosted_lint_probe/);
    } finally {
      await client.query('drop function if exists public.hosted_lint_probe()');
      await client.end();
    }
  });
});

describe('shared/lib/database.types.ts', () => {
  it('is what `supabase gen types typescript` generates from the pushed migrations', async () => {
    const fresh = await generateDatabaseTypes(project.postgresUrl);
    if (fresh !== readFileSync(databaseTypesFile, 'utf8')) {
      expect.fail('shared/lib/database.types.ts is stale: run npm run types:gen');
    }
    for (const table of ['profiles', 'user_plans', 'billing_history', 'payment_methods', 'login_activity',
      'active_sessions', 'support_tickets']) {
      expect(fresh).toContain(`      ${table}: {\n        Row: {`);
    }
  });
});
