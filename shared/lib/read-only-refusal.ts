/**
 * The database's refusal while an admin has read-only maintenance on (docs/adr/0280): SQLSTATE PT503, which
 * PostgREST answers with HTTP 503. Its message is already a sentence for people; the admin's reason comes in
 * `details`. Screens show readOnlySentence(error); the register's outbox keeps the entry and tries again later.
 */
export const READ_ONLY_CODE = 'PT503';

interface ErrorLike { code?: string | null; message?: string | null; details?: string | null }

export function isReadOnlyRefusal(error: ErrorLike | null | undefined): boolean {
  return error?.code === READ_ONLY_CODE;
}

/** "Storewise is in read-only maintenance: changes wait until it ends. <the admin's reason>" */
export function readOnlySentence(error: ErrorLike): string {
  const base = error.message || 'Storewise is in read-only maintenance: changes wait until it ends.';
  const why = error.details?.trim();
  return why ? `${base} ${why}` : base;
}
