/*
 * The hosted auth service's Send Email Hook (https://supabase.com/docs/guides/auth/auth-hooks/send-email-hook),
 * served by the send-email function at /send-email/auth-hook. Once [auth.hook.send_email] points here, GoTrue
 * sends no email itself: it POSTs each one (signed per Standard Webhooks) and this renders it with the emails the
 * local auth server uses (_shared/auth-email.ts) and sends it through the same HTTP email provider as the outbox.
 * An invitation (a sign-up or sign-in link whose redirect is an invitation's accept page) says who invites, to
 * which business and role; the facts come from the database (invitation_email_facts, service role), never from the
 * request. Free of Deno APIs, so tests run it under Node against the real data API.
 *
 * Secrets: SEND_EMAIL_HOOK_SECRET ("v1,whsec_<base64>", the hook's secret in the dashboard), and the sender's
 * SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY, EMAIL_API_KEY, EMAIL_FROM, EMAIL_API_URL (optional).
 */
import { fetchEmailSender, providerFromFields, type EmailSender } from '../_shared/email-sender.ts';
import {
  confirmationEmail, emailChangeEmail, invitationEmail, invitationTokenOf, magicLinkEmail, reauthenticationEmail,
  recoveryEmail, type AuthEmail, type InvitationFacts,
} from '../_shared/auth-email.ts';

export interface AuthHookConfig {
  supabaseUrl: string;
  serviceRoleKey: string;
  hookSecret: string;
  emailApiUrl: string;
  emailApiKey: string;
  emailFrom: string;
}

export interface AuthHookDeps {
  fetch: typeof fetch;
  log?: (line: string) => void;
  /** Seconds since the epoch; tests move it. */
  now?: () => number;
}

interface HookUser {
  email?: string;
  new_email?: string;
}

interface EmailData {
  token?: string;
  token_hash?: string;
  token_new?: string;
  token_hash_new?: string;
  redirect_to?: string;
  email_action_type?: string;
}

/** Standard Webhooks' tolerance: a delivery older or newer than five minutes is refused (replay). */
const toleranceSeconds = 5 * 60;

function hookError(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: { http_code: status, message } }), {
    status, headers: { 'Content-Type': 'application/json' },
  });
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

function bytesBase64(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)));
}

/** Standard Webhooks: HMAC-SHA256 of "id.timestamp.body" with the secret, any of the listed v1 signatures. */
export async function verifyHookSignature(secret: string, headers: Headers, body: string, nowSeconds: number): Promise<boolean> {
  const id = headers.get('webhook-id');
  const timestamp = headers.get('webhook-timestamp');
  const signatures = headers.get('webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const keyText = secret.replace(/^v1,/, '').replace(/^whsec_/, '');
  let keyBytes: Uint8Array<ArrayBuffer>;
  try {
    keyBytes = base64Bytes(keyText);
  } catch {
    return false;
  }
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = bytesBase64(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature || signature.length !== expected.length) return false;
    let diff = 0;
    for (let i = 0; i < expected.length; i += 1) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
    return diff === 0;
  });
}

export function authHookConfigFromEnv(get: (name: string) => string | undefined): AuthHookConfig | null {
  const required = ['SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'SEND_EMAIL_HOOK_SECRET', 'EMAIL_API_KEY', 'EMAIL_FROM'];
  if (required.some((name) => !get(name))) return null;
  const value = (name: string) => get(name) ?? '';
  return {
    supabaseUrl: value('SUPABASE_URL').replace(/\/+$/, ''),
    serviceRoleKey: value('SUPABASE_SERVICE_ROLE_KEY'),
    hookSecret: value('SEND_EMAIL_HOOK_SECRET'),
    emailApiUrl: get('EMAIL_API_URL') || 'https://api.resend.com/emails',
    emailApiKey: value('EMAIL_API_KEY'),
    emailFrom: value('EMAIL_FROM'),
  };
}

/** The request handler for /send-email/auth-hook. */
export function createAuthEmailHook(config: AuthHookConfig, deps: AuthHookDeps): (request: Request) => Promise<Response> {
  const log = deps.log ?? (() => {});
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));

  const verifyLink = (tokenHash: string, type: string, redirectTo: string) => {
    const link = new URL(`${config.supabaseUrl}/auth/v1/verify`);
    link.searchParams.set('token', tokenHash);
    link.searchParams.set('type', type);
    if (redirectTo) link.searchParams.set('redirect_to', redirectTo);
    return link.toString();
  };

  const invitationFacts = async (token: string, email: string): Promise<InvitationFacts | null> => {
    const response = await deps.fetch(`${config.supabaseUrl}/rest/v1/rpc/invitation_email_facts`, {
      method: 'POST',
      headers: { apikey: config.serviceRoleKey, Authorization: `Bearer ${config.serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ _token: token, _email: email }),
    });
    if (!response.ok) throw new Error(`invitation_email_facts answered ${response.status}`);
    const rows = (await response.json()) as InvitationFacts[];
    return rows[0] ?? null;
  };

  const render = async (user: HookUser, data: EmailData): Promise<AuthEmail[]> => {
    const type = data.email_action_type ?? '';
    const to = user.email ?? '';
    const redirectTo = data.redirect_to ?? '';
    const link = verifyLink(data.token_hash ?? '', type, redirectTo);
    if (type === 'signup' || type === 'magiclink' || type === 'invite') {
      const token = invitationTokenOf(redirectTo);
      const facts = token ? await invitationFacts(token, to) : null;
      if (facts) return [invitationEmail(to, link, facts)];
      return [type === 'signup' ? confirmationEmail(to, link) : magicLinkEmail(to, link)];
    }
    if (type === 'recovery') return [recoveryEmail(to, link)];
    if (type === 'reauthentication') return [reauthenticationEmail(to, data.token ?? '')];
    if (type === 'email_change') {
      // GoTrue's hook quirk (internal/api/mail.go): token_hash confirms the new address, token_hash_new the
      // current one (sent only with secure email change on).
      const newEmail = user.new_email ?? '';
      const mails = [emailChangeEmail(newEmail, link, newEmail)];
      if (data.token_hash_new && to) mails.push(emailChangeEmail(to, verifyLink(data.token_hash_new, type, redirectTo), newEmail));
      return mails;
    }
    return [];
  };

  const send = async (mail: AuthEmail, sender: EmailSender | null, idempotencyKey: string): Promise<void> => {
    const response = await deps.fetch(config.emailApiUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${config.emailApiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify({ ...providerFromFields(sender, config.emailFrom), to: [mail.to], subject: mail.subject, text: mail.text, html: mail.html }),
    });
    if (!response.ok) throw new Error(`email provider answered ${response.status}`);
    await response.body?.cancel();
  };

  return async (request) => {
    if (request.method !== 'POST') return hookError(405, 'use POST');
    const body = await request.text();
    if (!(await verifyHookSignature(config.hookSecret, request.headers, body, now()))) return hookError(401, 'invalid signature');
    let payload: { user?: HookUser; email_data?: EmailData };
    try {
      payload = JSON.parse(body) as typeof payload;
    } catch {
      return hookError(400, 'the body is not JSON');
    }
    if (!payload.user || !payload.email_data) return hookError(400, 'user and email_data are required');
    const type = payload.email_data.email_action_type ?? '';
    try {
      const mails = await render(payload.user, payload.email_data);
      if (mails.length === 0) return hookError(400, `unknown email action ${type.slice(0, 40)}`);
      // The webhook id: GoTrue's retry of one delivery is recognised by the provider instead of sent twice.
      const id = request.headers.get('webhook-id') ?? '';
      // The admin's sender name and reply-to (docs/adr/0281), read once per hook call (an email change sends two
      // emails); EMAIL_FROM when unreadable.
      const sender = await fetchEmailSender(deps.fetch, config.supabaseUrl, config.serviceRoleKey);
      for (const [index, mail] of mails.entries()) await send(mail, sender, `storewise-auth-${id}-${index}`);
    } catch (error) {
      // Never the address or the link (personal data, a sign-in token): the kind and the reason only.
      log(`send-email auth hook: ${type} failed: ${error instanceof Error ? error.message : 'unknown error'}`);
      return hookError(503, 'the email could not be sent; try again');
    }
    return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}
