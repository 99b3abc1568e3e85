import type { AuthDeepLink } from '../../shared/platform/platform';
import { parseAuthDeepLink } from './deep-link';

/**
 * Routes storewise:// URLs from every entry point (process argv at cold start, second-instance argv,
 * macOS open-url) through the one parser to the renderer. Links that arrive before the window has
 * loaded are held and delivered once it has; every accepted link brings the window to the front.
 */
export function createDeepLinkDispatcher(options: {
  send(link: AuthDeepLink): void;
  focus(): void;
  log?: (message: string) => void;
}) {
  const log = options.log ?? ((message: string) => console.warn(message));
  let ready = false;
  const pending: AuthDeepLink[] = [];

  return {
    /** Returns whether the URL was accepted. */
    handle(url: string): boolean {
      const link = parseAuthDeepLink(url);
      if (!link) {
        log(`Storewise: ignored a storewise:// link that is not an auth link we issue (${url.length} chars)`);
        return false;
      }
      if (ready) options.send(link);
      else pending.push(link);
      options.focus();
      return true;
    },
    /** The renderer finished loading (again): deliver what waited. */
    ready(): void {
      ready = true;
      for (const link of pending.splice(0)) options.send(link);
    },
    /** The renderer is reloading: hold links until it is back. */
    notReady(): void {
      ready = false;
    },
  };
}
