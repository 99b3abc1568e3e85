import { invitationEmail, invitationTokenOf, type InvitationFacts } from '../../functions/_shared/auth-email';
import type { Queryable } from '../db/types';
import type { OutgoingMail } from '../mail/mailbox';

/**
 * The invitation email for an auth link whose redirect is an invitation's accept page, or null when the redirect
 * is something else or the invitation is not pending for this address. The facts come from the database
 * (public.invitation_email_facts, the function the hosted hook calls), never from the request.
 */
export async function invitationMailFor(tx: Queryable, to: string, redirectTo: string, link: string): Promise<OutgoingMail | null> {
  const token = invitationTokenOf(redirectTo);
  if (!token) return null;
  const { rows } = await tx.query<InvitationFacts>(
    'select business_name, role, inviter_name, expires_at from public.invitation_email_facts($1, $2)', [token, to]);
  const facts = rows[0];
  return facts ? invitationEmail(to, link, facts) : null;
}
