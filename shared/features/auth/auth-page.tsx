import { AuthScreen } from './auth-screen';
import { SpaAuthBridge } from './spa-bridge';

/** The app's /auth route: the light screen with the app's router and services (docs/adr/0168). */
export function AuthPage() {
  return (
    <SpaAuthBridge>
      <AuthScreen />
    </SpaAuthBridge>
  );
}
