import type { Platform, SupabaseConfig } from '../shared/platform/platform';

/** The browser: sessions in localStorage, redirects back to this site, links in new tabs. */
export function createWebPlatform(supabase: SupabaseConfig, origin = window.location.origin) {
  return {
    kind: 'web',
    supabase,
    sessionStorage: window.localStorage,
    authFlow: 'implicit',
    redirects: {
      signIn: `${origin}/`,
      signUpConfirmed: `${origin}/#pricing`,
      passwordReset: `${origin}/reset-password`,
    },
    openOAuthUrl: (url) => window.location.assign(url),
    openExternal: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
    onAuthDeepLink: () => () => undefined,
    // Loaded only when the dashboard starts it: the public pages never fetch workbox-window (docs/adr/0200).
    offlineShell: {
      start(onUpdateReady) {
        let stop: (() => void) | null = null;
        let stopped = false;
        void import('./offline-shell').then((shell) => {
          if (!stopped) stop = shell.startOfflineShell(onUpdateReady);
        });
        return () => {
          stopped = true;
          stop?.();
        };
      },
    },
  } satisfies Platform;
}
