import { Hono } from 'hono';
import { logUnexpected } from '../log-unexpected';
import type { AuthDeps } from './auth-deps';
import { AuthError, authErrorResponse, errors } from './auth-error';
import { mountAdmin } from './routes/admin';
import { mountAdminFactors } from './routes/admin-factors';
import { mountAuthorize } from './routes/authorize';
import { mountFactors } from './routes/factors';
import { mountLogoutAndUser } from './routes/logout-user';
import { mountOtp } from './routes/otp';
import { mountRecoverAndVerify } from './routes/recover-verify';
import { mountSettings } from './routes/settings';
import { mountSignup } from './routes/signup';
import { mountToken } from './routes/token';

/** The GoTrue-compatible auth service, mounted by the gateway at /auth/v1. */
export function createAuthApp(deps: AuthDeps): Hono {
  const app = new Hono();
  mountSettings(app, deps);
  mountSignup(app, deps);
  mountToken(app, deps);
  mountLogoutAndUser(app, deps);
  mountRecoverAndVerify(app, deps);
  mountOtp(app, deps);
  mountAuthorize(app, deps);
  mountFactors(app, deps);
  mountAdmin(app, deps);
  mountAdminFactors(app, deps);
  app.notFound((c) => authErrorResponse(c, errors.notFound()));
  app.onError((error, c) => {
    if (error instanceof AuthError) return authErrorResponse(c, error);
    logUnexpected('Storewise auth: unexpected error', error);
    return authErrorResponse(c, new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'));
  });
  return app;
}

/** Auth routes a browser navigates to (no apikey header possible), open like on hosted Supabase. */
export const openAuthPaths = [/^\/auth\/v1\/verify$/, /^\/auth\/v1\/authorize$/, /^\/auth\/v1\/callback$/, /^\/auth\/v1\/local-provider\//];
