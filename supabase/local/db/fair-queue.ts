/**
 * One task at a time, like SerialQueue, but taken round-robin between lanes (one lane per signed-in user, per API
 * role without a user, and one for the stack's own work) instead of first come first served. PGlite has a single
 * connection: with one FIFO, an account that sends fifty requests at once puts every other tenant behind all fifty.
 * Here the waiting lane whose last turn is oldest goes next, so another user's request waits for at most one task
 * of each busy lane, and an account replaying calls one after another does not take every other turn from users
 * who rarely ask (docs/adr/0181). Within a lane the order stays FIFO.
 */
export class FairQueue {
  /** Waiting tasks per lane, lanes in the order they started waiting (the tie-break). */
  private readonly lanes = new Map<string, (() => void)[]>();
  /** When each lane last had a turn (a counter): the lane that waited longest since its last turn goes next. */
  private readonly served = new Map<string, number>();
  private turns = 0;
  private busy = false;

  /** Tasks that go before every lane (FIFO among themselves): short statements whose wait users see. */
  private readonly urgent: (() => void)[] = [];
  /**
   * Whether the task that ran last was urgent. After one, a waiting lane gets a turn before the next urgent task:
   * Realtime queues its next drain while the previous one still runs, so a burst of drains would otherwise take every
   * turn and stall the users' requests for as long as changes keep coming.
   */
  private urgentRanLast = false;

  run<T>(lane: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = this.starter(task, resolve, reject);
      const waiting = this.lanes.get(lane);
      if (waiting) waiting.push(start);
      else this.lanes.set(lane, [start]);
      if (!this.busy) this.next();
    });
  }

  /**
   * Runs `task` as soon as the running task ends, ahead of every lane, except right after another urgent task: then
   * one lane's turn comes first (urgent and lane turns alternate while both wait). Only for short statements whose
   * number is bounded by the work they serve (Realtime's delivery: one drain and one check per batch of commits),
   * never for requests.
   */
  runFirst<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.urgent.push(this.starter(task, resolve, reject));
      if (!this.busy) this.next();
    });
  }

  private starter<T>(task: () => Promise<T>, resolve: (value: T) => void, reject: (error: unknown) => void): () => void {
    // A task that throws before returning its promise fails alone; the queue goes on either way.
    return () => void Promise.resolve().then(task).then(resolve, reject).finally(() => this.next());
  }

  /** Lanes with work waiting (for tests and messages). */
  get waitingLanes(): number {
    return this.lanes.size;
  }

  /** Tasks waiting for their turn, the running one not counted (tests wait for requests to arrive). */
  get waitingTasks(): number {
    let count = this.urgent.length;
    for (const waiting of this.lanes.values()) count += waiting.length;
    return count;
  }

  private next(): void {
    if (this.urgent.length > 0 && !(this.urgentRanLast && this.lanes.size > 0)) {
      const first = this.urgent.shift()!;
      this.urgentRanLast = true;
      this.busy = true;
      first();
      return;
    }
    this.urgentRanLast = false;
    let chosen: string | undefined;
    let oldest = Infinity;
    for (const lane of this.lanes.keys()) {
      const last = this.served.get(lane) ?? 0;
      if (last < oldest) {
        oldest = last;
        chosen = lane;
      }
    }
    const waiting = chosen === undefined ? undefined : this.lanes.get(chosen);
    const start = waiting?.shift();
    if (chosen === undefined || !start) {
      this.busy = false;
      return;
    }
    if (waiting?.length === 0) this.lanes.delete(chosen);
    this.turns += 1;
    // Bounded memory: forget idle lanes' turns now and then (they then count as never served: a first turn).
    if (this.served.size > 10_000) for (const lane of this.served.keys()) if (!this.lanes.has(lane)) this.served.delete(lane);
    this.served.set(chosen, this.turns);
    this.busy = true;
    start();
  }
}

/** The lane of a data-API request: its user (JWT sub), else its role (anon, or service_role without a user). */
export function laneOf(ctx: { role: string; claims: { sub?: unknown } }): string {
  return typeof ctx.claims.sub === 'string' && ctx.claims.sub !== '' ? `user:${ctx.claims.sub}` : `role:${ctx.role}`;
}

/** The stack's own statements (auth, migrations, the outbox relay, analyze). */
export const OWNER_LANE = 'owner';
