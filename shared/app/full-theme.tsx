import { ChakraProvider, type SystemContext } from '@chakra-ui/react';
import { createContext, use, useContext, useEffect, useState, type ReactNode } from 'react';
import { landingSystem } from './landing-theme';

/** Resolves once the full system is in the ChakraProvider; null when it already is. */
const FullThemeContext = createContext<Promise<void> | null>(null);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * ChakraProvider that starts with the landing page's small system and swaps in the full one (theme.ts) as
 * soon as it has loaded in the background (docs/adr/0044). Both share tokens and styles, so the swap does
 * not change how the landing looks; it only adds the recipes of the other screens.
 */
export function StorewiseChakraProvider({ children }: { children: ReactNode }) {
  const [fullSystem] = useState(() => import('./theme').then((module) => module.system));
  const [installed] = useState(deferred);
  const [system, setSystem] = useState<SystemContext>(landingSystem);

  useEffect(() => {
    let live = true;
    void fullSystem.then((loaded) => live && setSystem(() => loaded));
    return () => {
      live = false;
    };
  }, [fullSystem]);

  // Resolved after the commit that installed the full system, so a waiting screen never renders unstyled.
  useEffect(() => {
    if (system !== landingSystem) installed.resolve();
  }, [system, installed]);

  return (
    <ChakraProvider value={system}>
      <FullThemeContext value={system === landingSystem ? installed.promise : null}>{children}</FullThemeContext>
    </ChakraProvider>
  );
}

/**
 * Renders its children only with the full system installed (until then the nearest Suspense shows), unless
 * `unless` says the children need no more than the landing system.
 */
export function RequireFullTheme({ children, unless = false }: { children: ReactNode; unless?: boolean }) {
  const pending = useContext(FullThemeContext);
  if (pending && !unless) use(pending);
  return children;
}
