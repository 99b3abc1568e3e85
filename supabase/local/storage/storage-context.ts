import type { Db, RequestContext } from '../db/types';
import type { FileStore } from './file-store';
import type { UrlSigner } from './signed-token';

/** What every Storage handler works with. */
export interface StorageDeps {
  db: Db;
  files: FileStore;
  signer: UrlSigner;
  /** The service's own upload limit in bytes (a bucket's limit can only lower it). */
  maxFileSize: number;
}

/** The caller, as Storage sees them after checking the JWT. */
export interface Caller {
  ctx: RequestContext;
  /** auth.uid() of the caller, if a user. */
  userId: string | null;
}

export function callerContext(role: RequestContext['role'], claims: RequestContext['claims'], readOnly = false): Caller {
  return {
    ctx: { role, claims, readOnly },
    userId: typeof claims.sub === 'string' && /^[0-9a-f-]{36}$/i.test(claims.sub) ? claims.sub : null,
  };
}

/** Rows written by a signed upload URL: the token was the permission; the owner is who asked for it. */
export function serviceCaller(ownerId: string | null): Caller {
  return { ctx: { role: 'service_role', claims: { role: 'service_role' }, readOnly: false }, userId: ownerId };
}
