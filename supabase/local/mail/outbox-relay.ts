import type { Db } from '../db/types';
import { startPeriodicTask, type PeriodicTask } from '../periodic-task';
import type { Mailer } from './mailer';
import type { OutgoingMail } from './mailbox';
import { renderOutboxEmail, type OutboxRowLike } from '../../functions/_shared/outbox-email';
import { outboxRenderers } from '../../functions/_shared/outbox-renderers';

/*
 * Delivers the rows the database writes to public.email_outbox (support desk, purchase orders, receipts;
 * docs/adr/0120, 0121). The local stack polls; on hosted Supabase the send-email Edge Function does the same
 * through the same two functions: claim_email_outbox leases due rows (FOR UPDATE SKIP LOCKED, so two deliverers
 * never send one row), finish_email_outbox marks each sent or failed. A failed send or a template this version
 * does not know keeps its row, with the attempt counted and retried with backoff: no email is lost.
 */

interface OutboxRow extends OutboxRowLike {
  id: string;
  attempts?: number;
}

/** The email of one outbox row; null for a template this version does not know (left for a newer one). */
export function outboxEmail(row: OutboxRowLike, siteUrl: string, apiUrl?: string): OutgoingMail | null {
  return renderOutboxEmail(row, siteUrl, outboxRenderers, apiUrl);
}

/** An error text for the row: never an address (personal data), at most 500 characters. */
export function outboxErrorText(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.replace(/[^\s<>"']+@[^\s<>"']+/g, '<address>').slice(0, 500);
}

export interface DrainOptions {
  /** Rows per round (1..100). */
  limit?: number;
  /** How long a claimed row stays with this run before another may take it. */
  leaseSeconds?: number;
  /** The stack's API URL, for public Storage files in emails (the business logo, docs/adr/0321). */
  apiUrl?: string;
}

/** Sends what is due in the outbox now; returns how many emails went out. */
export async function drainOutbox(db: Db, mailer: Mailer, siteUrl: string, options: DrainOptions = {}): Promise<number> {
  const { rows } = await db.query<OutboxRow>(
    `select id::text, to_email, template, params, attempts from public.claim_email_outbox($1, $2)`,
    [options.limit ?? 50, options.leaseSeconds ?? 120],
  );
  // The sender settings once per round, not once per email (a round is up to `limit` emails).
  const sender = rows.length > 0 && mailer.readSender ? await mailer.readSender() : undefined;
  let sent = 0;
  for (const row of rows) {
    let error: string | null = null;
    const mail = outboxEmail(row, siteUrl, options.apiUrl);
    if (!mail) {
      error = `unknown template or params: ${row.template.slice(0, 60)}`;
    } else {
      try {
        await mailer.send(mail, sender);
        sent += 1;
      } catch (failure) {
        error = outboxErrorText(failure);
      }
    }
    await db.query('select public.finish_email_outbox($1::bigint, $2)', [row.id, error]);
  }
  return sent;
}

export interface OutboxRelayOptions {
  db: Db;
  mailer: Mailer;
  /** The app's address, for links in the emails. */
  siteUrl: string;
  /** The stack's API URL, for public Storage files in emails (the business logo, docs/adr/0321). */
  apiUrl?: string;
  /** Between two rounds; 500 ms unless told. */
  intervalMs?: number;
  /** Where a failed round is reported (no addresses); console.error unless told. */
  log?: (message: string) => void;
}

/** Polls the outbox every intervalMs until stopped; a failed round is logged (no addresses) and retried. */
export function startOutboxRelay(options: OutboxRelayOptions): PeriodicTask {
  const { db, mailer, siteUrl, apiUrl, intervalMs = 500, log = console.error } = options;
  return startPeriodicTask(() => drainOutbox(db, mailer, siteUrl, apiUrl ? { apiUrl } : {}), intervalMs, (error) =>
    log(`Storewise: email outbox failed: ${(error as { code?: string }).code ?? 'error'}`));
}
