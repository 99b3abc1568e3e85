import '../shared/lib/zod-jitless';
import { loadSupabaseConfig } from './runtime-config';

// The configuration is fetched at once; the app's JavaScript (React, Chakra, the screens) is a separate chunk.
const container = document.getElementById('root')!;
const configLater = loadSupabaseConfig();
const startApp = () => void import('./start').then((module) => module.start(container, configLater));

// A prerendered page is complete HTML (docs/adr/0090): let the browser paint it before the app's scripts are
// evaluated, so its first and largest paints never wait for them. Pages rendered in the browser start at once.
if (container.dataset.prerendered) requestAnimationFrame(() => setTimeout(startApp, 0));
else startApp();
