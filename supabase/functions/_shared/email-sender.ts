/*
 * The sender name and reply-to an admin sets in System Settings > Email (docs/adr/0281), for every deliverer:
 * the local stack's mailer (Node) and the send-email Edge Function (Deno). No imports, no runtime APIs beyond
 * fetch. The sending address stays the environment's (EMAIL_FROM / SMTP_FROM, the provider's verified domain);
 * only its display name and the Reply-To come from the settings, read at send time.
 */

export interface EmailSender {
  name: string;
  reply_to: string;
}

/** The database refuses these characters already; a header never gets them anyway. */
export const headerSafe = (value: string): string => value.replace(/[\r\n"<>]/g, '').trim();

/**
 * The sender from public.email_sender()'s JSON (the RPC's body, or the column the local stack selects), header-safe;
 * null when it is not that shape (the email then goes from the environment's name, without a Reply-To).
 */
export function parseEmailSender(value: unknown): EmailSender | null {
  const body = value as { name?: unknown; reply_to?: unknown } | null;
  if (!body || typeof body.name !== 'string' || typeof body.reply_to !== 'string') return null;
  return { name: headerSafe(body.name), reply_to: headerSafe(body.reply_to) };
}

/**
 * `Name <address>` (quoted when the name has characters a bare display name may not: RFC 5322 atext and spaces),
 * the address taken from the environment's From, which may carry a name of its own.
 */
export function fromHeader(name: string, envFrom: string): string {
  const address = /<([^<>\s]+)>/.exec(envFrom)?.[1] ?? envFrom.trim();
  const shown = headerSafe(name);
  if (!shown) return address;
  return /^[A-Za-z0-9 !#$%&'*+\-/=?^_`{|}~]+$/.test(shown) ? `${shown} <${address}>` : `"${shown}" <${address}>`;
}

/** The fields of an email provider's JSON body (Resend's shape: from, reply_to) for this sender. */
export function providerFromFields(sender: EmailSender | null, envFrom: string): { from: string; reply_to?: string } {
  if (!sender) return { from: envFrom };
  const replyTo = headerSafe(sender.reply_to);
  return { from: sender.name ? fromHeader(sender.name, envFrom) : envFrom, ...(replyTo ? { reply_to: replyTo } : {}) };
}

/** The sender in force, through the data API with the service role; null when it cannot be read (the email still goes). */
export async function fetchEmailSender(fetcher: typeof fetch, supabaseUrl: string, serviceRoleKey: string): Promise<EmailSender | null> {
  try {
    const response = await fetcher(`${supabaseUrl}/rest/v1/rpc/email_sender`, {
      method: 'POST',
      headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return parseEmailSender(await response.json());
  } catch {
    return null;
  }
}
