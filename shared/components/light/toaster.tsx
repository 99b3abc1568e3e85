import { useSyncExternalStore } from 'react';
import { LuCircleAlert, LuCircleCheck, LuInfo, LuX } from 'react-icons/lu';

export type LightToastType = 'success' | 'error' | 'info';
export interface LightToast {
  id: number;
  type: LightToastType;
  title: string;
  description?: string | undefined;
}
export interface Notify {
  success: (title: string, description?: string) => void;
  error: (title: string, description?: string) => void;
  info: (title: string, description?: string) => void;
}

// As long as shared/components/toaster.tsx keeps each kind: errors longest.
const durations: Record<LightToastType, number> = { success: 5000, info: 5000, error: 8000 };
const icons = { success: LuCircleCheck, error: LuCircleAlert, info: LuInfo };

const noToasts: readonly LightToast[] = [];
// The same empty list as the server snapshot: a different one would make React render the page again right
// after hydrating it.
let toasts = noToasts;
let nextId = 1;
const listeners = new Set<() => void>();
const publish = (next: readonly LightToast[]) => {
  toasts = next;
  for (const listener of listeners) listener();
};
const dismiss = (id: number) => publish(toasts.filter((toast) => toast.id !== id));

function show(type: LightToastType, title: string, description?: string) {
  const id = nextId++;
  publish([...toasts, { id, type, title, description }]);
  setTimeout(() => dismiss(id), durations[type]);
}

/**
 * The toasts of a light page (docs/adr/0168): the same calls as shared/components/toaster.tsx's `notify`,
 * without Chakra's toaster (zag-js). The app uses `notify`; a light page that hands over to the app passes the
 * toasts still showing on to it (`showingToasts`).
 */
export const lightNotify: Notify = {
  success: (title, description) => show('success', title, description),
  error: (title, description) => show('error', title, description),
  info: (title, description) => show('info', title, description),
};

export const showingToasts = (): readonly LightToast[] => toasts;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
/** The toast stack, bottom-end as the app's; `data-testid` as the app's toasts, for the same tests. */
export function LightToaster() {
  const showing = useSyncExternalStore(subscribe, () => toasts, () => noToasts);
  return (
    <div className="lt-toaster" role="region" aria-label="Notifications" aria-live="polite">
      {showing.map((toast) => {
        const Icon = icons[toast.type];
        return (
          <div key={toast.id} className="lt-toast" data-type={toast.type} data-testid={`toast-${toast.type}`} role="status">
            <Icon className="lt-toast-icon" aria-hidden="true" />
            <div className="lt-stack lt-grow">
              <div className="lt-toast-title">{toast.title}</div>
              {toast.description && <div className="lt-toast-description">{toast.description}</div>}
            </div>
            <button type="button" className="lt-toast-close" aria-label="Close" onClick={() => dismiss(toast.id)}>
              <LuX aria-hidden="true" />
            </button>
          </div>
        );
      })}
    </div>
  );
}
