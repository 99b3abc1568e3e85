import type { CredentialStore } from './credential-store';

/**
 * Windows Credential Manager refuses secrets over 2560 bytes, and a supabase-js session (tokens plus the
 * user object) is often larger. This wrapper splits long secrets over `<account>`, `<account>#1`, ...
 * so the keychain layer stays a plain get/set/delete. Short secrets are stored as they are.
 */
export const DEFAULT_CHUNK_SIZE = 1200; // UTF-16 chars: 2400 bytes on Windows, under its 2560-byte limit

const HEADER = /^swc1:(\d{1,3}):/;

export function createChunkedStore(inner: CredentialStore, chunkSize = DEFAULT_CHUNK_SIZE): CredentialStore {
  const part = (account: string, index: number) => `${account}#${index}`;

  async function partCount(account: string): Promise<number> {
    const head = await inner.get(account);
    const match = head ? HEADER.exec(head) : null;
    return match ? Number(match[1]) : head === null ? 0 : 1;
  }

  return {
    persistent: inner.persistent,
    async get(account) {
      const head = await inner.get(account);
      if (head === null) return null;
      const match = HEADER.exec(head);
      if (!match) return head;
      const parts = [head.slice(match[0].length)];
      for (let index = 1; index < Number(match[1]); index += 1) {
        const next = await inner.get(part(account, index));
        if (next === null) return null; // torn write: treat as no session rather than a corrupt one
        parts.push(next);
      }
      return parts.join('');
    },
    async set(account, secret) {
      const previous = await partCount(account);
      const headerRoom = chunkSize - 'swc1:000:'.length;
      const needsHeader = secret.length > chunkSize || HEADER.test(secret);
      const chunks = needsHeader ? split(secret, headerRoom, chunkSize) : [secret];
      // Parts first, head last: a reader never sees a head that points at parts not written yet.
      for (let index = 1; index < chunks.length; index += 1) await inner.set(part(account, index), chunks[index]!);
      await inner.set(account, needsHeader ? `swc1:${chunks.length}:${chunks[0]!}` : secret);
      for (let index = chunks.length; index < previous; index += 1) await inner.delete(part(account, index));
    },
    async delete(account) {
      const count = await partCount(account);
      for (let index = 1; index < count; index += 1) await inner.delete(part(account, index));
      return inner.delete(account);
    },
  };
}

function split(secret: string, firstSize: number, size: number): string[] {
  const chunks = [secret.slice(0, firstSize)];
  for (let offset = firstSize; offset < secret.length; offset += size) chunks.push(secret.slice(offset, offset + size));
  if (chunks.length > 999) throw new Error('secret too large for the keychain');
  return chunks;
}
