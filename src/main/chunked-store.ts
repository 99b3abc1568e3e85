import { randomBytes } from 'node:crypto';
import type { CredentialStore } from './credential-store';

/**
 * Windows Credential Manager refuses secrets over 2560 bytes, and a supabase-js session (tokens plus the
 * user object) is often larger. This wrapper splits long secrets over `<account>`, `<account>#1`, ...
 * so the keychain layer stays a plain get/set/delete. Short secrets are stored as they are.
 *
 * A keychain has no transactions, so a crash (or a failed call) can stop a write half-way. Two rules keep
 * that from ever producing a wrong secret:
 * - order: the parts are written first and the head (which holds the part count) last, so a head never
 *   points at parts that were not written yet; parts the new secret no longer needs go after the head,
 *   highest first, so leftovers of an interrupted cleanup are found and removed by the next write;
 * - generation: every write picks a random tag that the head and each of its parts carry, so a head
 *   read next to a part of another write (a rewrite that stopped after some parts) is seen as torn and
 *   read as "no secret" (signed out) instead of a splice of two sessions.
 */
export const DEFAULT_CHUNK_SIZE = 1200; // UTF-16 chars: 2400 bytes on Windows, under its 2560-byte limit

const HEADER = /^swc2:(\d{1,3}):([0-9a-f]{8}):/;
const HEADER_ROOM = 'swc2:000:00000000:'.length;
const MAX_PARTS = 999;

export function createChunkedStore(
  inner: CredentialStore,
  chunkSize = DEFAULT_CHUNK_SIZE,
  newGeneration: () => string = () => randomBytes(4).toString('hex'),
): CredentialStore {
  const part = (account: string, index: number) => `${account}#${index}`;

  /**
   * Deletes the parts from `from` on, highest first. Stored parts always form one unbroken run #1..#k
   * (writes go upwards, deletes downwards), so after any interruption the leftovers still sit right
   * above the head's parts, where the next write or delete finds them by probing upwards.
   */
  async function deletePartsFrom(account: string, from: number): Promise<void> {
    let end = from;
    while ((await inner.get(part(account, end))) !== null) end += 1;
    for (let index = end - 1; index >= from; index -= 1) await inner.delete(part(account, index));
  }

  return {
    persistent: inner.persistent,
    async get(account) {
      const head = await inner.get(account);
      const match = head === null ? null : HEADER.exec(head);
      if (!match) return head;
      const generation = match[2]!;
      const parts = [head!.slice(match[0].length)];
      for (let index = 1; index < Number(match[1]); index += 1) {
        const next = await inner.get(part(account, index));
        // Missing, or written by another (interrupted) write: torn, so no session rather than a corrupt one.
        if (next === null || !next.startsWith(`${generation}:`)) return null;
        parts.push(next.slice(generation.length + 1));
      }
      return parts.join('');
    },
    async set(account, secret) {
      if (secret.length <= chunkSize && !HEADER.test(secret)) {
        await inner.set(account, secret);
        await deletePartsFrom(account, 1);
        return;
      }
      const generation = newGeneration();
      const chunks = split(secret, chunkSize - HEADER_ROOM, chunkSize - generation.length - 1);
      for (let index = 1; index < chunks.length; index += 1) await inner.set(part(account, index), `${generation}:${chunks[index]!}`);
      await inner.set(account, `swc2:${chunks.length}:${generation}:${chunks[0]!}`);
      await deletePartsFrom(account, chunks.length);
    },
    async delete(account) {
      // Parts first, head last: until the head goes, a reader sees a torn (so empty) secret, never a partial one.
      await deletePartsFrom(account, 1);
      return inner.delete(account);
    },
  };
}

function split(secret: string, firstSize: number, size: number): string[] {
  const chunks = [secret.slice(0, firstSize)];
  for (let offset = firstSize; offset < secret.length; offset += size) chunks.push(secret.slice(offset, offset + size));
  if (chunks.length > MAX_PARTS) throw new Error('secret too large for the keychain');
  return chunks;
}
