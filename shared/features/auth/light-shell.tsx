import { useSyncExternalStore } from 'react';
import { NavigationContext, type Navigation } from '../../components/light/navigation';
import { LightToaster } from '../../components/light/toaster';

// web/auth-entry.tsx takes these from here, so its own chunk stays a few lines (one evaluation step each).
export { plainNavigation } from '../../components/light/navigation';
export { lightNotify, showingToasts } from '../../components/light/toaster';
import { AuthScreen } from './auth-screen';
import { AuthServicesContext, type AuthServices } from './auth-services';
import { ForgotPasswordScreen } from './forgot-password-screen';

/** The auth pages prerendered and booted without the app (docs/adr/0168), by path. */
export const lightScreens = { '/auth': AuthScreen, '/forgot-password': ForgotPasswordScreen } as const;
export type LightPath = keyof typeof lightScreens;
export const isLightPath = (path: string | undefined): path is LightPath => path !== undefined && Object.hasOwn(lightScreens, path);

const subscribe = () => () => undefined;

/**
 * Until the page has hydrated its controls are `inert` (shared/app/hydration-gate.tsx, without Chakra): a form
 * submitted natively would put the password in the URL. The prerender and the hydrating render see false.
 */
function LightHydrationGate({ children }: { children: React.ReactNode }) {
  const hydrated = useSyncExternalStore(subscribe, () => true, () => false);
  return (
    <div className="lt-contents" inert={!hydrated}>
      {children}
    </div>
  );
}

interface LightShellProps {
  path: LightPath;
  services: AuthServices;
  navigation: Navigation;
}

/** The whole of a light auth page: what the prerender writes (web/entry-server.tsx) and the browser hydrates. */
export function LightShell({ path, services, navigation }: LightShellProps) {
  const Screen = lightScreens[path];
  return (
    <NavigationContext.Provider value={navigation}>
      <AuthServicesContext.Provider value={services}>
        <LightHydrationGate>
          <Screen />
        </LightHydrationGate>
        <LightToaster />
      </AuthServicesContext.Provider>
    </NavigationContext.Provider>
  );
}
