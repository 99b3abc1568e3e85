/**
 * Marks a promise the way React's `use` records one it has seen settle (status and value or reason), as soon as
 * it settles. A component that first calls `use` on it afterwards then gets the value in the same render; an
 * unmarked promise suspends that render once even when it settled long ago, and React reveals the content behind
 * the Suspense fallback only after its throttle (~300 ms; docs/adr/0418). Returns the same promise.
 */
export function settledForUse<T>(promise: Promise<T>): Promise<T> {
  const marked = promise as Promise<T> & { status?: string; value?: T; reason?: unknown };
  promise.then(
    (value) => {
      if (marked.status === undefined) Object.assign(marked, { status: 'fulfilled', value });
    },
    (reason: unknown) => {
      if (marked.status === undefined) Object.assign(marked, { status: 'rejected', reason });
    },
  );
  return promise;
}

/**
 * A promise of a value already in hand, marked as settled from the start: a component that calls `use` on it in
 * its very first render gets the value without suspending (docs/adr/0436).
 */
export function settledValue<T>(value: T): Promise<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled', value });
}
