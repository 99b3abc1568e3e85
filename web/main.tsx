// First: zod must not probe eval under the CSP.
import '../shared/lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from '../shared/app/app';
import { canHydrate } from '../shared/app/public-pages';
import { createWebPlatform } from './platform';
import { loadSupabaseConfig } from './runtime-config';

const container = document.getElementById('root')!;

loadSupabaseConfig().then(
  (config) => {
    const app = (
      <StrictMode>
        <App platform={createWebPlatform(config)} Router={BrowserRouter} />
      </StrictMode>
    );
    // Public pages arrive prerendered (docs/adr/0090): adopt that HTML instead of painting it again.
    if (canHydrate(container.dataset.prerendered, window.location.pathname)) hydrateRoot(container, app);
    else createRoot(container).render(app);
  },
  (error: unknown) => {
    createRoot(container).render(<p role="alert">{error instanceof Error ? error.message : 'Storewise could not start.'}</p>);
  },
);
