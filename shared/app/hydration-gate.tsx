import { Box } from '@chakra-ui/react';
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';

const subscribe = () => () => undefined;

/**
 * True while prerendering a page that is sent without the app's scripts (docs/adr/0091): it is never hydrated,
 * so it must not be inert; its links are plain links and work as they are.
 */
export const PrerenderedWithoutScripts = createContext(false);

/**
 * False on a prerendered page without forms (the landing, docs/adr/0160): before hydration its links and
 * anchors work natively and its buttons do nothing, inert or not, while lifting `inert` from a whole page makes
 * the browser recalculate the style of every element. The prerender and the hydrating browser give the same value.
 */
export const InertUntilHydrated = createContext(true);

/**
 * Prerendered screens are painted before their JavaScript runs (docs/adr/0090). Until the screen has hydrated
 * it is `inert`: a click would be lost, and a sign-in form submitted natively would put the password in the
 * URL. The server snapshot (false) is what the prerender and the hydrating render see; the browser's own
 * (true) follows right after hydration, and a screen rendered in the browser is never inert.
 */
export function HydrationGate({ children }: { children: ReactNode }) {
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const withoutScripts = useContext(PrerenderedWithoutScripts);
  const gated = useContext(InertUntilHydrated);
  return (
    <Box display="contents" inert={!hydrated && !withoutScripts && gated}>
      {children}
    </Box>
  );
}
