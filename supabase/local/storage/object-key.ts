import { errors } from './storage-error';

/**
 * Object names as Storage accepts them (its isValidKey character set, plus letters and digits of any script),
 * and stricter on what could reach a file system or confuse a policy: no "." or ".." segment, no empty
 * segment, no leading slash, no backslash or control character. Files are stored by object id, never by
 * name, so this is about the names the policies and the UI see, not about where bytes go.
 */
const KEY_CHARS = /^[\p{L}\p{N}_/!\-.*'() &$@=;:+,?]+$/u;
const BUCKET_CHARS = /^[\w!\-.*'() &$@=;:+,?]+$/;

export function checkObjectKey(key: string): string {
  const segments = key.split('/');
  const valid =
    key.length > 0 &&
    key.length <= 1024 &&
    KEY_CHARS.test(key) &&
    segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
  if (!valid) throw errors.invalidKey(key);
  return key;
}

export function checkBucketName(bucket: string): string {
  if (bucket.length === 0 || bucket.length > 100 || !BUCKET_CHARS.test(bucket) || bucket === '.' || bucket === '..') {
    throw errors.invalidBucketName();
  }
  return bucket;
}

/** "<bucket>/<key...>" from the part of the URL after a route prefix (percent-decoded once, as Fastify does). */
export function splitBucketAndKey(rest: string): { bucket: string; key: string } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    throw errors.invalidKey(rest);
  }
  const slash = decoded.indexOf('/');
  if (slash <= 0) throw errors.invalidKey(decoded);
  return { bucket: checkBucketName(decoded.slice(0, slash)), key: checkObjectKey(decoded.slice(slash + 1)) };
}
