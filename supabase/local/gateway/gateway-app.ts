import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { createAuthApp, openAuthPaths } from '../auth/auth-app';
import type { AuthDeps } from '../auth/auth-deps';
import type { ApiKeys } from '../keys/api-keys';
import { handleRest } from '../rest/handle-rest';
import { HeavyCallGate, type HeavyCallGateOptions } from '../rest/heavy-calls';
import { logUnexpected } from '../log-unexpected';
import { apiKeyProblem } from './api-key';
import { bodyLimit } from './body-limit';
import { allowedHostNames, hostCheck } from './host-check';
import { restJsonDepthLimit } from './json-depth';
import { restAuth } from './rest-auth';
import { handleFunction } from '../functions/functions-app';
import type { DenoRunner } from '../functions/deno-runner';
import type { EdgeFunction } from '../functions/function-config';

export interface GatewayOptions {
  auth: AuthDeps;
  keys: ApiKeys;
  /** Origins allowed by CORS besides loopback ones (the web origin, the desktop app). */
  allowedOrigins: string[];
  /** Request body limit in bytes. */
  maxBodyBytes: number;
  /** Host names served (see host-check.ts); default: loopback, the allowed origins' hosts and STOREWISE_ALLOWED_HOSTS. */
  allowedHosts?: ReadonlySet<string>;
  /** At most one heavy data-API call per user at a time (rest/heavy-calls.ts). */
  heavyCalls?: HeavyCallGateOptions;
  /** Edge Functions (supabase/functions under Deno) at /functions/v1/<name>. */
  functions?: { list: Map<string, EdgeFunction>; runner: DenoRunner };
  /** The Storage API (supabase/local/storage) at /storage/v1; it streams its own bodies. */
  storage?: Hono;
}

const loopbackOrigin = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;

/** Supabase's API gateway in one Hono app: CORS, body limit, apikey, then /auth/v1 and /rest/v1. */
export function createGateway(options: GatewayOptions): Hono {
  const { auth, keys } = options;
  const app = new Hono();
  const allowed = new Set(options.allowedOrigins);
  const heavyCalls = new HeavyCallGate(options.heavyCalls);

  // First: a rebound DNS name must not even reach CORS or the routes.
  app.use('*', hostCheck(options.allowedHosts ?? allowedHostNames(options.allowedOrigins)));
  app.use(
    '*',
    cors({
      // Local development stack: the configured origins plus any loopback dev server.
      origin: (origin) => (allowed.has(origin) || loopbackOrigin.test(origin) ? origin : null),
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['Content-Range', 'Content-Location', 'Preference-Applied', 'x-sb-error-code', 'X-Supabase-Api-Version', 'Location', 'Retry-After'],
      maxAge: 3600,
    }),
  );
  // Storage streams uploads to disk under each bucket's own limit (storage/file-store.ts): not buffered here.
  const limit = bodyLimit(options.maxBodyBytes);
  app.use('*', (c, next) => (options.storage && c.req.path.startsWith('/storage/v1/') ? next() : limit(c, next)));
  // A 200,000-deep body overflowed JSON.stringify in the data API (a 500): refuse it up front.
  app.use('/rest/v1/*', restJsonDepthLimit());

  app.use('/auth/v1/*', async (c, next) => {
    if (!openAuthPaths.some((pattern) => pattern.test(c.req.path))) {
      const problem = apiKeyProblem(c, keys);
      if (problem) return problem;
    }
    await next();
  });
  app.route('/auth/v1', createAuthApp(auth));

  app.all('/rest/v1/*', async (c) => {
    const problem = apiKeyProblem(c, keys);
    if (problem) return problem;
    const authResult = await restAuth(c, keys, auth.jwtSecret);
    if (authResult instanceof Response) return authResult;
    return handleRest(c.req.raw, authResult, auth.db, heavyCalls);
  });
  app.all('/rest/v1', async (c) => {
    const problem = apiKeyProblem(c, keys);
    if (problem) return problem;
    const authResult = await restAuth(c, keys, auth.jwtSecret);
    if (authResult instanceof Response) return authResult;
    return handleRest(c.req.raw, authResult, auth.db, heavyCalls);
  });

  // No apikey check here, as on hosted: the edge runtime checks the JWT per function (verify_jwt), and a
  // payment provider's webhook carries no project key.
  const functions = options.functions;
  if (functions) app.all('/functions/v1/*', (c) => handleFunction(c, functions.list, functions.runner, auth.jwtSecret));

  // No apikey check, as on hosted: Storage checks the JWT itself, and public object URLs carry no key.
  if (options.storage) app.route('/storage/v1', options.storage);

  app.notFound((c) => c.json({ message: 'no Route matched with those values' }, 404));
  app.onError((error, c) => {
    logUnexpected('Storewise gateway: unexpected error', error);
    return c.json({ message: 'An unexpected error occurred' }, 500);
  });
  return app;
}
