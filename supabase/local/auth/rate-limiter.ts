/**
 * Fixed-window counters per key (bucket + client IP), like GoTrue's per-IP limits. In memory: limits
 * reset when the stack restarts, which is what a local development stack wants.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one hit; false when the limit for this window is already used up. */
  hit(key: string, limit: number, windowSeconds: number): boolean {
    const now = this.now();
    const current = this.windows.get(key);
    if (!current || now - current.start >= windowSeconds * 1000) {
      this.windows.set(key, { start: now, count: 1 });
      this.prune(now, windowSeconds);
      return limit >= 1;
    }
    current.count += 1;
    return current.count <= limit;
  }

  private prune(now: number, windowSeconds: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, value] of this.windows) {
      if (now - value.start >= windowSeconds * 1000) this.windows.delete(key);
    }
  }
}
