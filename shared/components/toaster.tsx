import { lazy, Suspense } from 'react';
import { personMessage } from '../lib/database-messages';
import type * as ToasterUi from './toaster-ui';

type ToasterUiModule = typeof ToasterUi;
type ToastType = 'success' | 'error' | 'info';

// One shared promise: toasts requested before the module arrives are created in the order they were asked for.
let toasterUi: Promise<ToasterUiModule> | undefined;
const loadToasterUi = (): Promise<ToasterUiModule> => (toasterUi ??= import('./toaster-ui'));

/**
 * How long each kind stays, in ms. zag's defaults close a success toast after 2 s, too soon to read a
 * sentence such as "You've been logged out from all other devices."; errors stay longest. Hovering or
 * focusing a toast pauses it.
 */
const durations: Record<ToastType, number> = { success: 5000, info: 5000, error: 8000 };

function show(type: ToastType, title: string, description?: string): void {
  void loadToasterUi().then(
    ({ toaster }) => toaster.create({ type, title, description, duration: durations[type] }),
    (error: unknown) => console.error(`Could not show the toast "${title}":`, error),
  );
}

/** The spec's toasts: a title and a description; "destructive" ones are errors. Callable before the UI loads. */
export const notify = {
  success: (title: string, description?: string) => show('success', title, description),
  // An error's description is often the database's own words: shown as a sentence with what to do (issue 25).
  error: (title: string, description?: string) => show('error', title, description === undefined ? undefined : personMessage(description)),
  info: (title: string, description?: string) => show('info', title, description),
};

const LazyToasterUi = lazy(() => loadToasterUi().then((module) => ({ default: module.ToasterUi })));

/** Mounted once by the root layout; its UI arrives after the first paint and then shows any queued toast. */
export function Toaster() {
  return (
    <Suspense fallback={null}>
      <LazyToasterUi />
    </Suspense>
  );
}
