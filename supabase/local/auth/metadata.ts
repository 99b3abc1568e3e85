import { AuthError } from './auth-error';

/**
 * user_metadata and app_metadata travel in every access token: a large value makes every request's
 * Authorization header too large (431) and the account cannot repair itself. 4 KB of serialized JSON
 * keeps the JWT well under the 8 KB header budget of common proxies. (GoTrue has no limit; hosted
 * Supabase warns that large metadata bloats tokens.)
 */
export const MAX_METADATA_BYTES = 4096;

export type Metadata = Record<string, unknown>;

export function assertMetadataSize(field: 'user_metadata' | 'app_metadata', value: Metadata): void {
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > MAX_METADATA_BYTES) {
    throw new AuthError(
      400,
      'validation_failed',
      `${field} is too large: ${bytes} bytes as JSON, at most ${MAX_METADATA_BYTES} bytes are allowed`,
    );
  }
}

/** GoTrue's merge: given keys replace, a null value removes its key, other keys stay. */
export function mergeMetadata(current: Metadata | null | undefined, patch: Metadata, { nullRemoves }: { nullRemoves: boolean }): Metadata {
  const merged: Metadata = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null && nullRemoves) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
