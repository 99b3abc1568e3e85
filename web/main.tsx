import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from '../shared/app/app';
import { routes } from '../shared/app/routes';
import { createWebPlatform } from './platform';
import { loadSupabaseConfig } from './runtime-config';

const root = createRoot(document.getElementById('root')!);

loadSupabaseConfig().then(
  (config) => {
    root.render(
      <StrictMode>
        <App platform={createWebPlatform(config)} router={createBrowserRouter(routes)} />
      </StrictMode>,
    );
  },
  (error: unknown) => {
    root.render(<p role="alert">{error instanceof Error ? error.message : 'Storewise could not start.'}</p>);
  },
);
