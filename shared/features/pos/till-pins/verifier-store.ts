import { getMeta, setMeta, type PosDatabase } from '../outbox';
import { verifierSetSchema, type LocalAttempts, type VerifierSet } from './offline-verifier';

/**
 * The register's copy of its store's PIN verifiers and its local wrong-try counts, in the register's own database
 * beside the outbox (ADR 0300). The copy is replaced whole each time the register fetches it online (a PIN changed
 * or a person who left is gone at the next fetch) and read back through the schema, so a copy tampered with or
 * written by an older build is ignored rather than trusted.
 */
const setKey = (registerId: string) => `till-verifiers:${registerId}`;
const attemptsKey = (registerId: string) => `till-pin-attempts:${registerId}`;

export async function readVerifiers(db: PosDatabase, registerId: string): Promise<VerifierSet | null> {
  const parsed = verifierSetSchema.safeParse(await getMeta(db, setKey(registerId)));
  return parsed.success && parsed.data.register_id === registerId ? parsed.data : null;
}

export function keepVerifiers(db: PosDatabase, set: VerifierSet): Promise<void> {
  return setMeta(db, setKey(set.register_id), set);
}

export async function readAttempts(db: PosDatabase, registerId: string): Promise<LocalAttempts> {
  return (await getMeta<LocalAttempts>(db, attemptsKey(registerId))) ?? {};
}

export function keepAttempts(db: PosDatabase, registerId: string, attempts: LocalAttempts): Promise<void> {
  return setMeta(db, attemptsKey(registerId), attempts);
}
