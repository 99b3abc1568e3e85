import { Box } from '@chakra-ui/react';
import { useSyncExternalStore, type ReactNode } from 'react';

const subscribe = () => () => undefined;

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
  return (
    <Box display="contents" inert={!hydrated}>
      {children}
    </Box>
  );
}
