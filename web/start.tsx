import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from '../shared/app/app';
import { canHydrate } from '../shared/app/public-pages';
import type { SupabaseConfig } from '../shared/platform/platform';
import { createWebPlatform } from './platform';

/** Renders the product into #root, adopting the prerendered HTML when it was made for this path. */
export function start(container: HTMLElement, configLater: Promise<SupabaseConfig>) {
  configLater.then(
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
}
