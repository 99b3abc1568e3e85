// The app and the browser's router, in one module for web/start.tsx's dynamic import: importing the
// react-router-dom package itself dynamically would keep all of its exports (no tree-shaking).
export { App } from '../shared/app/app';
export { BrowserRouter } from 'react-router-dom';
// Evaluated in the same step: the emotion cache a prerendered page hydrates with (docs/adr/0160).
export { CacheProvider } from '@emotion/react';
export { serverStylesCache } from './server-styles-cache';
export { InertUntilHydrated } from '../shared/app/hydration-gate';
