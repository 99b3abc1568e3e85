import { createClient, type SupabaseClient } from '@supabase/supabase-js';

/*
 * The invitation email goes out through the auth service's own email (docs/adr/0105): signInWithOtp to the
 * invitee with the accept page as the redirect. The same call reaches GoTrue on hosted Supabase and the local
 * auth server's /otp, with the anon key only. A separate, session-less client with the implicit flow is used,
 * so the link works in the invitee's browser (a PKCE verifier would stay in the owner's) and the owner's own
 * session is not touched.
 */

export interface AuthEndpoint {
  url: string;
  anonKey: string;
}

/** Thrown when the invitation exists but its email could not be sent (the link can still be copied). */
export class InvitationEmailError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'InvitationEmailError';
  }
}

/** A session-less client on the implicit flow, only for sending invitation emails. */
export function invitationMailClient(endpoint: AuthEndpoint): InvitationMailer {
  return createClient(endpoint.url, endpoint.anonKey, {
    auth: { flowType: 'implicit', persistSession: false, autoRefreshToken: false, detectSessionInUrl: false,
      storageKey: 'storewise-invitation-mail' },
  });
}

export type InvitationMailer = { auth: Pick<SupabaseClient['auth'], 'signInWithOtp'> };

export async function sendInvitationEmail(client: InvitationMailer, email: string, acceptUrl: string): Promise<void> {
  // `invited` tells the sign-up trigger not to found a business for a new account (it joins one instead).
  const { error } = await client.auth.signInWithOtp({
    email,
    options: { emailRedirectTo: acceptUrl, shouldCreateUser: true, data: { invited: true } },
  });
  if (error) {
    const wait = error.status === 429 ? ' An email to this address was sent moments ago; wait a minute before sending again.' : '';
    throw new InvitationEmailError(`The invitation email could not be sent: ${error.message}.${wait}`, error.status);
  }
}
