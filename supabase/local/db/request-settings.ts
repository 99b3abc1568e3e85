import { statementTimeoutMs, type StatementTimeouts } from './statement-timeouts';
import type { Queryable, RequestContext } from './types';

const apiRoles = new Set(['anon', 'authenticated', 'service_role']);

/**
 * What PostgREST does at the start of every request transaction: switch role and publish the JWT claims
 * and request facts as transaction-local settings (they vanish at commit or rollback), with the role's
 * statement timeout (statement-timeouts.ts). Values are bound parameters, never interpolated.
 */
export async function applyRequestContext(tx: Queryable, ctx: RequestContext, timeouts?: Partial<StatementTimeouts>): Promise<void> {
  // The type already narrows the role; this guards callers that cast untrusted input.
  if (!apiRoles.has(ctx.role)) throw new Error(`Storewise: refusing to switch to role ${String(ctx.role)}`);
  if (ctx.readOnly) await tx.query('set transaction read only');
  await tx.query(
    `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.method', $3, true),
            set_config('request.path', $4, true),
            set_config('request.headers', $5, true),
            set_config('statement_timeout', $6, true)`,
    [ctx.role, JSON.stringify(ctx.claims), ctx.method ?? '', ctx.path ?? '', JSON.stringify(ctx.headers ?? {}), String(statementTimeoutMs(ctx.role, timeouts))],
  );
}
