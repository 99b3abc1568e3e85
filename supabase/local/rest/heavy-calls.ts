/**
 * At most one heavy call in flight per user (docs/adr/0181). PGlite runs one statement at a time, so the functions
 * that do the most work per call (posting, importing, reports, the register's catalog pages, stock sheets) are
 * taken one at a time per user: a few more wait their turn in order (a reports screen asks for two or three at
 * once), and past that the call is refused with 429 and Retry-After, so one account replaying calls in parallel
 * cannot hold the single connection. Other users' calls, and light ones, never wait here. The service role (the
 * platform's own jobs) is not limited.
 */
import { RestError } from './rest-error';

/** Functions whose one call can take a large share of a second on PGlite. */
const HEAVY = /^(import_catalog|post_sales?|post_refund|post_count|report_.+|admin_overview|admin_billing_overview|business_overview|demand_history|reorder_inputs|reorder_list|create_reorder_purchase_order|pos_catalog|count_sheet|stock_history|receive_purchase_order|x_report|z_report|close_shift|flagged_sales|flagged_shifts)$/;

export function isHeavyFunction(name: string): boolean {
  return HEAVY.test(name);
}

/** 429: too many heavy calls at once from one user. Code 53300 (too_many_connections): "try again shortly". */
export class TooManyHeavyCalls extends RestError {
  constructor(readonly retryAfterSeconds: number, maxWaiting: number) {
    super(429, '53300', 'Too many requests at once from this account: wait a moment and try again.',
      `One such call runs at a time per account and ${maxWaiting} more may wait their turn.`,
      `Retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`);
  }
}

export interface HeavyCallGateOptions {
  /** Calls that may wait behind the running one, per user (default 8: a screen asks for a few at once). */
  maxWaiting?: number;
  /** The Retry-After of a refusal, in seconds (default 1). */
  retryAfterSeconds?: number;
}

interface Lane {
  waiting: (() => void)[];
}

export class HeavyCallGate {
  private readonly lanes = new Map<string, Lane>();
  private readonly maxWaiting: number;
  private readonly retryAfterSeconds: number;

  constructor(options: HeavyCallGateOptions = {}) {
    this.maxWaiting = options.maxWaiting ?? 8;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }

  /** Runs fn when the user's previous heavy calls are done; throws TooManyHeavyCalls when too many wait. */
  async run<T>(user: string, fn: () => Promise<T>): Promise<T> {
    let lane = this.lanes.get(user);
    if (lane) {
      if (lane.waiting.length >= this.maxWaiting) throw new TooManyHeavyCalls(this.retryAfterSeconds, this.maxWaiting);
      const current = lane;
      await new Promise<void>((resolve) => current.waiting.push(resolve));
    } else {
      lane = { waiting: [] };
      this.lanes.set(user, lane);
    }
    try {
      return await fn();
    } finally {
      // Hand the turn to the next waiting call, or free the user's lane.
      const next = lane.waiting.shift();
      if (next) next();
      else this.lanes.delete(user);
    }
  }

  /** Users with a heavy call running (for tests and messages). */
  get busyUsers(): number {
    return this.lanes.size;
  }
}
