/** Runs the jobs with at most `limit` at a time; the first failure stops new jobs and is thrown once all settle. */
export async function atOnce(limit: number, jobs: Iterable<() => Promise<unknown>>): Promise<void> {
  const running = new Set<Promise<void>>();
  const failures: unknown[] = [];
  for (const job of jobs) {
    if (failures.length > 0) break;
    const run: Promise<void> = job().then(() => undefined, (error: unknown) => { failures.push(error); })
      .finally(() => running.delete(run));
    running.add(run);
    if (running.size >= Math.max(1, limit)) await Promise.race(running);
  }
  await Promise.all(running);
  if (failures.length > 0) throw failures[0];
}
