// First: zod must not probe eval under the CSP.
import '../shared/lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from '../shared/app/app';
import { createWebPlatform } from './platform';
import { loadSupabaseConfig } from './runtime-config';

const root = createRoot(document.getElementById('root')!);

loadSupabaseConfig().then(
  (config) => {
    root.render(
      <StrictMode>
        <App platform={createWebPlatform(config)} Router={BrowserRouter} />
      </StrictMode>,
    );
  },
  (error: unknown) => {
    root.render(<p role="alert">{error instanceof Error ? error.message : 'Storewise could not start.'}</p>);
  },
);
