/**
 * A plan change made on the Billing page changes the limits other features show (the workspace's "2 of 3
 * stores", the Overview's card). Features do not import each other, so Billing announces the change on the
 * window and whoever caches limits reloads them.
 */
const PLAN_CHANGED = 'storewise:plan-changed';

export function announcePlanChanged(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(PLAN_CHANGED));
}

/** Calls `listener` after each announced plan change; returns the unsubscribe function. */
export function onPlanChanged(listener: () => void): () => void {
  if (typeof window === 'undefined') return () => {};
  window.addEventListener(PLAN_CHANGED, listener);
  return () => window.removeEventListener(PLAN_CHANGED, listener);
}
