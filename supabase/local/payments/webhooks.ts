import { createHmac } from 'node:crypto';
import type { StripeEvent, WebhookEndpoint } from './objects';

/** Stripe's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/**
 * Delivers events to the webhook endpoints one at a time per endpoint, in creation order, as Stripe does
 * (Stripe does not promise order; the receiver must not depend on it, and the tests reorder on purpose).
 * A non-2xx answer or a network error is retried with backoff (0.5 s doubling, 8 tries locally; Stripe retries
 * for three days). idle() resolves once every queued delivery has ended, so tests wait without sleeping.
 */
export class WebhookDispatcher {
  private queue: { endpoint: WebhookEndpoint; event: StripeEvent; tries: number }[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;
  readonly deliveries: { event: string; type: string; status: number }[] = [];

  constructor(private readonly endpoints: () => WebhookEndpoint[], private readonly log: (line: string) => void) {}

  enqueue(event: StripeEvent): void {
    for (const endpoint of this.endpoints()) {
      if (endpoint.enabled_events.includes('*') || endpoint.enabled_events.includes(event.type)) {
        this.queue.push({ endpoint, event, tries: 0 });
      }
    }
    this.running ??= this.drain().finally(() => { this.running = null; });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      const next = this.queue.shift();
      if (!next) break;
      const payload = JSON.stringify(next.event, null, 2);
      let status: number;
      try {
        const answer = await fetch(next.endpoint.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json; charset=utf-8', 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'Stripe-Signature': signPayload(payload, next.endpoint.secret) },
          body: payload,
          signal: AbortSignal.timeout(20_000),
        });
        status = answer.status;
        await answer.arrayBuffer();
      } catch {
        status = 0;
      }
      this.deliveries.push({ event: next.event.id, type: next.event.type, status });
      if (status < 200 || status >= 300) {
        next.tries += 1;
        if (next.tries < 8 && !this.stopped) {
          this.log(`local payments: webhook ${next.event.type} answered ${status || 'no response'}; retrying`);
          await new Promise((done) => setTimeout(done, 500 * 2 ** (next.tries - 1)));
          this.queue.unshift(next);
        }
      }
    }
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    this.queue = [];
  }
}
