// The hosted deliverer of public.email_outbox (docs/adr/0121): pg_cron POSTs here every minute while rows are due
// (private.kick_email_outbox_sender). Deploy with `supabase functions deploy send-email --no-verify-jwt`: the
// caller is checked against OUTBOX_SENDER_TOKEN instead of a user JWT. The work itself is in sender.ts.
// /send-email/auth-hook is the auth service's Send Email Hook (auth-hook.ts): the auth emails, with invitations
// that name the business, checked by the hook's Standard Webhooks signature.
import { renderOutboxEmail } from '../_shared/outbox-email.ts';
import { outboxRenderers } from '../_shared/outbox-renderers.ts';
import { authHookConfigFromEnv, createAuthEmailHook } from './auth-hook.ts';
import { createOutboxSender, senderConfigFromEnv } from './sender.ts';

const env = (name: string) => Deno.env.get(name);
const log = (line: string) => console.error(line);
const config = senderConfigFromEnv(env);
const hookConfig = authHookConfigFromEnv(env);

const outbox = createOutboxSender(config, {
  render: (row, siteUrl, apiUrl) => renderOutboxEmail(row, siteUrl, outboxRenderers, apiUrl),
  fetch,
  log,
});
const authHook = hookConfig ? createAuthEmailHook(hookConfig, { fetch, log }) : null;

Deno.serve((request) => {
  if (new URL(request.url).pathname.endsWith('/auth-hook')) {
    if (!authHook) {
      return Promise.resolve(new Response(JSON.stringify({ error: { http_code: 503, message: 'SEND_EMAIL_HOOK_SECRET is not set' } }),
        { status: 503, headers: { 'Content-Type': 'application/json' } }));
    }
    return authHook(request);
  }
  return outbox(request);
});
