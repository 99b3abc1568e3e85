import type { Context } from 'hono';
import { verifyJwt } from '../keys/verify-jwt';
import type { DenoRunner } from './deno-runner';
import type { EdgeFunction } from './function-config';

// Hop-by-hop headers are not forwarded (RFC 9110 7.6.1); the body length is recomputed.
const dropped = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length']);

/**
 * /functions/v1/<name>[/...]: the edge runtime's contract. With verify_jwt (the default) the Authorization
 * bearer must be a JWT of this project (anon, authenticated or service_role), else 401 before the function
 * runs. The function sees the path from /<name> on, as on hosted Supabase, and the raw body unchanged
 * (a webhook's signature is over exact bytes).
 */
export async function handleFunction(c: Context, functions: Map<string, EdgeFunction>, runner: DenoRunner,
  jwtSecret: string): Promise<Response> {
  const match = /^\/functions\/v1\/([^/]+)(\/.*)?$/.exec(c.req.path);
  const fn = match?.[1] ? functions.get(match[1]) : undefined;
  if (!fn) return c.json({ code: 'NOT_FOUND', message: 'Requested function was not found' }, 404);
  if (fn.verifyJwt) {
    const header = c.req.header('authorization');
    const token = header ? /^bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
    if (!token) return c.json({ code: 'UNAUTHORIZED_NO_AUTH_HEADER', message: 'Missing authorization header' }, 401);
    const check = await verifyJwt(token, jwtSecret);
    if (!check.ok) return c.json({ code: 'UNAUTHORIZED_INVALID_JWT_FORMAT', message: 'Invalid JWT' }, 401);
  }
  let port: number;
  try {
    port = await runner.portOf(fn);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return c.json({ code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' }, 503);
  }
  const url = new URL(c.req.url);
  const headers = new Headers();
  c.req.raw.headers.forEach((value, key) => {
    if (!dropped.has(key.toLowerCase())) headers.set(key, value);
  });
  const hasBody = !['GET', 'HEAD'].includes(c.req.method);
  const answer = await fetch(`http://127.0.0.1:${port}/${fn.name}${match?.[2] ?? ''}${url.search}`, {
    method: c.req.method,
    headers,
    body: hasBody ? await c.req.arrayBuffer() : undefined,
    redirect: 'manual',
  });
  const out = new Headers(answer.headers);
  out.delete('content-length');
  out.delete('content-encoding');
  return new Response(answer.body, { status: answer.status, headers: out });
}
