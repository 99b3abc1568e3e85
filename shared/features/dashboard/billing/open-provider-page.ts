import type { Platform } from '../../../platform/platform';

/**
 * The provider's checkout and portal pages: on the web the tab goes there and the provider sends it back to
 * the Billing page; the desktop app opens the system browser (card entry never happens inside Storewise).
 */
export function openProviderPage(platform: Platform, url: string): void {
  if (platform.kind === 'web') window.location.assign(url);
  else platform.openExternal(url);
}
