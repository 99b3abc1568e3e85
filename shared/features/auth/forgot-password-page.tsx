import { ForgotPasswordScreen } from './forgot-password-screen';
import { SpaAuthBridge } from './spa-bridge';

/** The app's /forgot-password route: the light screen with the app's router and services (docs/adr/0168). */
export function ForgotPasswordPage() {
  return (
    <SpaAuthBridge>
      <ForgotPasswordScreen />
    </SpaAuthBridge>
  );
}
