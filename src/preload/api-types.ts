import type { createStorewiseApi } from './api';

/** window.storewise as the renderer sees it: derived from the preload's object, so the two cannot drift. */
export type StorewiseBridge = ReturnType<typeof createStorewiseApi>;
