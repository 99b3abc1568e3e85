// First: zod must not probe eval under the CSP.
import '../shared/lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router-dom';
import { App } from '../shared/app/app';
import { preloadScreens } from '../shared/app/screen-modules';
import { notify } from '../shared/components/toaster';
import { getBridge } from './bridge';
import { createDesktopPlatform } from './platform';

const root = createRoot(document.getElementById('root')!);

function fail(message: string) {
  root.render(<p role="alert">{message}</p>);
}

async function start() {
  // The screen the window opens on (a hash route), loaded while the configuration is asked for (docs/adr/0418);
  // the first render waits for both, so the screen does not suspend on its way (docs/adr/0436).
  const screensLater = preloadScreens(window.location.hash.replace(/^#/, '').split('?')[0] || '/');
  const bridge = getBridge();
  if (!bridge) return fail('Storewise desktop must be started from the Storewise app.');
  const [result] = await Promise.all([bridge.app.config(), screensLater]);
  if (!result.ok) return fail(result.message);
  const platform = createDesktopPlatform(bridge, result.config);
  // Hash routes: the app is served from app://storewise/index.html with no server-side fallback (docs/adr/0070).
  root.render(
    <StrictMode>
      <App platform={platform} Router={HashRouter} />
    </StrictMode>,
  );
  const warning = await platform.sessionPersistenceWarning();
  if (warning) notify.info('Sign-in will not be remembered', warning);
}

start().catch((error: unknown) => fail(error instanceof Error ? error.message : 'Storewise could not start.'));
