import { useMemo, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { NavigationContext, type LightLinkProps, type Navigation } from '../../components/light/navigation';
import { notify } from '../../components/toaster';
import { usePlatform, useSupabaseLater } from '../../lib/platform-context';
import { AuthServicesContext, type AuthServices } from './auth-services';

function RouterLightLink({ to, ...props }: LightLinkProps) {
  return <RouterLink to={to} {...props} />;
}

/**
 * An auth screen inside the app (client-side navigation, the desktop's HashRouter, the prerender of the pages
 * the app still hydrates): its navigation is react-router's and its services are the app's (docs/adr/0168).
 */
export function SpaAuthBridge({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const platform = usePlatform();
  const supabase = useSupabaseLater();
  const navigation = useMemo<Navigation>(() => ({ navigate: (to) => void navigate(to), Link: RouterLightLink }), [navigate]);
  const services = useMemo<AuthServices>(
    () => ({ supabase: () => supabase, platform: () => Promise.resolve(platform), notify, prepare: () => undefined }),
    [supabase, platform],
  );
  return (
    <NavigationContext.Provider value={navigation}>
      <AuthServicesContext.Provider value={services}>{children}</AuthServicesContext.Provider>
    </NavigationContext.Provider>
  );
}
