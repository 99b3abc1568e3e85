/*
 * The send-email Edge Function's work, free of Deno APIs so the local stack's tests run it under Node against the
 * real data API (docs/adr/0121). One call: claim due public.email_outbox rows through the data API with the
 * service role (claim_email_outbox: FOR UPDATE SKIP LOCKED and a lease, so two runs never send one row), render
 * each with the shared renderer, send it through an HTTP email provider (Resend's API shape: POST JSON with a
 * bearer key and an Idempotency-Key, so a retry after a lost answer does not send twice), and report it with
 * finish_email_outbox: sent, or failed (the row stays and is retried with backoff).
 *
 * Configuration comes from the function's secrets (never the repository): SUPABASE_URL and
 * SUPABASE_SERVICE_ROLE_KEY (set by the platform), OUTBOX_SENDER_TOKEN (the bearer pg_cron sends, also in Vault),
 * EMAIL_API_KEY, EMAIL_FROM, SITE_URL, and optionally EMAIL_API_URL (default Resend's).
 */
import { fetchEmailSender, providerFromFields, type EmailSender } from '../_shared/email-sender.ts';
import type { OutboxRowLike, RenderedEmail } from '../_shared/outbox-email.ts';

export interface SenderConfig {
  supabaseUrl: string;
  serviceRoleKey: string;
  senderToken: string;
  siteUrl: string;
  emailApiUrl: string;
  emailApiKey: string;
  emailFrom: string;
  /** Rows per call (1..100). */
  batchSize: number;
  leaseSeconds: number;
}

export interface SenderDeps {
  render: (row: OutboxRowLike, siteUrl: string, apiUrl?: string) => RenderedEmail | null;
  fetch: typeof fetch;
  log?: (line: string) => void;
}

interface ClaimedRow extends OutboxRowLike {
  id: number;
  attempts: number;
}

export const defaultEmailApiUrl = 'https://api.resend.com/emails';

/** The configuration from the function's environment; throws naming the missing secrets (not their values). */
export function senderConfigFromEnv(get: (name: string) => string | undefined): SenderConfig {
  const required = ['SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'OUTBOX_SENDER_TOKEN', 'EMAIL_API_KEY', 'EMAIL_FROM', 'SITE_URL'];
  const missing = required.filter((name) => !get(name));
  if (missing.length > 0) throw new Error(`send-email: missing secrets ${missing.join(', ')}`);
  const value = (name: string) => get(name) ?? '';
  return {
    supabaseUrl: value('SUPABASE_URL').replace(/\/+$/, ''),
    serviceRoleKey: value('SUPABASE_SERVICE_ROLE_KEY'),
    senderToken: value('OUTBOX_SENDER_TOKEN'),
    siteUrl: value('SITE_URL'),
    emailApiUrl: get('EMAIL_API_URL') || defaultEmailApiUrl,
    emailApiKey: value('EMAIL_API_KEY'),
    emailFrom: value('EMAIL_FROM'),
    batchSize: 20,
    leaseSeconds: 120,
  };
}

/** Constant-time comparison of the caller's bearer token with the configured one. */
function sameToken(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i += 1) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0 && expected.length > 0;
}

/** An error text for the row: never an address, at most 500 characters. */
function errorText(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.replace(/[^\s<>"']+@[^\s<>"']+/g, '<address>').slice(0, 500);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The request handler Deno.serve runs (supabase/functions/send-email/index.ts). */
export function createOutboxSender(config: SenderConfig, deps: SenderDeps): (request: Request) => Promise<Response> {
  const log = deps.log ?? (() => {});
  const rpc = async (name: string, args: Record<string, unknown>): Promise<unknown> => {
    const response = await deps.fetch(`${config.supabaseUrl}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: {
        apikey: config.serviceRoleKey,
        Authorization: `Bearer ${config.serviceRoleKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(args),
    });
    if (!response.ok) throw new Error(`${name} answered ${response.status}`);
    return response.json();
  };

  const send = async (row: ClaimedRow, mail: RenderedEmail, sender: EmailSender | null): Promise<void> => {
    const response = await deps.fetch(config.emailApiUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${config.emailApiKey}`,
        'Content-Type': 'application/json',
        // The row id: a retry after a lost answer is recognised by the provider instead of sent twice.
        'Idempotency-Key': `storewise-outbox-${row.id}`,
      },
      // The admin's sender name and reply-to (docs/adr/0281) on EMAIL_FROM's address.
      body: JSON.stringify({ ...providerFromFields(sender, config.emailFrom), to: [mail.to], subject: mail.subject, text: mail.text, html: mail.html }),
    });
    // The provider's body may echo the address: only the status goes into the row.
    if (!response.ok) throw new Error(`email provider answered ${response.status}`);
    await response.body?.cancel();
  };

  return async (request) => {
    if (request.method !== 'POST') return json(405, { error: 'use POST' });
    const bearer = /^Bearer (.+)$/.exec(request.headers.get('Authorization') ?? '')?.[1] ?? '';
    if (!sameToken(bearer, config.senderToken)) return json(401, { error: 'not allowed' });

    let claimed: ClaimedRow[];
    try {
      claimed = (await rpc('claim_email_outbox', { _limit: config.batchSize, _lease_seconds: config.leaseSeconds })) as ClaimedRow[];
    } catch (error) {
      log(`send-email: claim failed: ${errorText(error)}`);
      return json(502, { error: 'could not claim the outbox' });
    }
    let sent = 0;
    let failed = 0;
    // Read once per run, at send time: a changed sender name or reply-to applies to the next run's emails.
    const sender = claimed.length > 0 ? await fetchEmailSender(deps.fetch, config.supabaseUrl, config.serviceRoleKey) : null;
    if (claimed.length > 0 && !sender) log('send-email: could not read the sender settings; sending from EMAIL_FROM');
    for (const row of claimed) {
      let error: string | null = null;
      const mail = deps.render(row, config.siteUrl, config.supabaseUrl);
      if (!mail) {
        error = `unknown template or params: ${String(row.template).slice(0, 60)}`;
      } else {
        try {
          await send(row, mail, sender);
        } catch (failure) {
          error = errorText(failure);
        }
      }
      try {
        await rpc('finish_email_outbox', { _id: row.id, _error: error });
      } catch (failure) {
        // The lease runs out and the row is claimed again: at worst sent twice, the provider's idempotency
        // key dedupes that within its window.
        log(`send-email: could not mark row ${row.id}: ${errorText(failure)}`);
      }
      if (error) {
        failed += 1;
        log(`send-email: row ${row.id} attempt ${row.attempts} failed: ${error}`);
      } else {
        sent += 1;
      }
    }
    return json(200, { claimed: claimed.length, sent, failed });
  };
}
