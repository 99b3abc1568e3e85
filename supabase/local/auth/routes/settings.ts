import type { Hono } from 'hono';
import type { AuthDeps } from '../auth-deps';

export function mountSettings(app: Hono, deps: AuthDeps): void {
  app.get('/settings', (c) =>
    c.json({
      external: {
        anonymous_users: false,
        apple: false,
        azure: false,
        bitbucket: false,
        discord: false,
        facebook: false,
        figma: false,
        github: false,
        gitlab: false,
        google: true,
        keycloak: false,
        kakao: false,
        linkedin_oidc: false,
        notion: false,
        slack_oidc: false,
        spotify: false,
        twitch: false,
        twitter: false,
        workos: false,
        zoom: false,
        email: true,
        phone: false,
      },
      disable_signup: !deps.config.enableSignup,
      mailer_autoconfirm: deps.config.autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );
  app.get('/health', (c) => c.json({ version: 'storewise-local', name: 'GoTrue', description: 'Storewise local auth (GoTrue-compatible)' }));
  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [] }));
}
