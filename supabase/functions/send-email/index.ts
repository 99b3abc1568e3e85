// The hosted deliverer of public.email_outbox (docs/adr/0121): pg_cron POSTs here every minute while rows are due
// (private.kick_email_outbox_sender). Deploy with `supabase functions deploy send-email --no-verify-jwt`: the
// caller is checked against OUTBOX_SENDER_TOKEN instead of a user JWT. The work itself is in sender.ts.
import { renderOutboxEmail } from '../_shared/outbox-email.ts';
import { outboxRenderers } from '../_shared/outbox-renderers.ts';
import { createOutboxSender, senderConfigFromEnv } from './sender.ts';

const config = senderConfigFromEnv((name) => Deno.env.get(name));

Deno.serve(
  createOutboxSender(config, {
    render: (row, siteUrl) => renderOutboxEmail(row, siteUrl, outboxRenderers),
    fetch,
    log: (line) => console.error(line),
  }),
);
