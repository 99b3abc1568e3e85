import type { ComponentProps } from 'react';
import { AuthLayout as LightAuthLayout } from './auth-layout';
import { SpaAuthBridge } from './spa-bridge';

/**
 * The auth frame for the screens the app still draws with Chakra (sign-up, password reset, success): the light
 * frame with the app's router, so its links navigate in the app (and in the desktop's HashRouter).
 */
export function AuthLayout(props: ComponentProps<typeof LightAuthLayout>) {
  return (
    <SpaAuthBridge>
      <LightAuthLayout {...props} />
    </SpaAuthBridge>
  );
}
