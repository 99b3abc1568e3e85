import type { StorewiseBridge } from '../src/preload/api-types';

declare global {
  interface Window {
    /** Exposed by src/preload through contextBridge; absent when the page is opened in a plain browser. */
    storewise?: StorewiseBridge;
  }
}

export type { StorewiseBridge };

export function getBridge(): StorewiseBridge | null {
  return window.storewise ?? null;
}
