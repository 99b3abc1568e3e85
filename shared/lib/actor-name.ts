/**
 * How the audit trail and stock history name who did something (docs/adr/0175): the account's email first, since
 * its holder cannot set it to someone else's, then the self-chosen profile name in brackets as a secondary label.
 * A manager renamed to the owner's name still reads "manager@shop.test (Olivia Owner)".
 */
export function actorName(actor: { email?: string | null; name?: string | null }): string {
  const email = actor.email?.trim() || null;
  const name = actor.name?.trim() || null;
  if (email) return name && name.toLowerCase() !== email.toLowerCase() ? `${email} (${name})` : email;
  return name ?? 'System';
}
