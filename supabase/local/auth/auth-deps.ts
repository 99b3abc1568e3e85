import type { AuthConfig } from '../config';
import type { Db } from '../db/types';
import type { Mailer } from '../mail/mailer';
import type { RateLimiter } from './rate-limiter';

/** What the auth routes share; apiUrl is a function because the port is known only after listening. */
export interface AuthDeps {
  db: Db;
  config: AuthConfig;
  jwtSecret: string;
  apiUrl: () => string;
  mailer: Mailer;
  limiter: RateLimiter;
}
