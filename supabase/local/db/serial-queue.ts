/**
 * A FIFO queue that runs one task at a time. PGlite has a single connection: running every statement and
 * transaction through one queue is what guarantees that a request's SET LOCAL ROLE and claims can never
 * be seen by another request, whatever PGlite's own internal locking does.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // The queue continues whether the task succeeded or failed; the caller sees the real outcome.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
