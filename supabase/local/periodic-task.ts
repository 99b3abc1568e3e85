/**
 * A background task of the local stack (the email outbox relay, PGlite's analyze step): runs every intervalMs, one
 * round after another (a slow round delays the next, never overlaps it), a failed round reported through onError
 * and retried next time. stop() waits for the round under way.
 */
export interface PeriodicTask {
  stop(): Promise<void>;
}

export function startPeriodicTask(run: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void): PeriodicTask {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(run).catch(onError);
  }, intervalMs);
  // The stack's process may end while a task waits for its next round.
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
