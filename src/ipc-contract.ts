/**
 * The one contract between the Electron main process, the preload and the renderer: channel names,
 * payload schemas and the shapes that cross the bridge. Main validates every payload against these
 * schemas (a compromised renderer can send anything); the preload uses the same names so they cannot drift.
 * Types only from shared/: this file is compiled into main, preload (sandboxed, bundled) and renderer.
 */
import { z } from 'zod';
import type { AuthDeepLink, SupabaseConfig } from '../shared/platform/platform';

export const IPC = {
  sessionGet: 'storewise:session:get',
  sessionSet: 'storewise:session:set',
  sessionRemove: 'storewise:session:remove',
  openExternal: 'storewise:links:open-external',
  appVersion: 'storewise:app:version',
  appConfig: 'storewise:app:config',
  persistenceWarning: 'storewise:session:persistence-warning',
  /** main -> renderer event: an accepted storewise:// auth link. */
  authDeepLink: 'storewise:auth:deep-link',
} as const;

/** supabase-js storage keys look like `sb-<project>-auth-token` (and `...-code-verifier` during PKCE). */
export const sessionKeySchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, 'storage keys are plain identifiers');

/** A serialized supabase-js session is a few KB; anything far larger is not a session. */
export const sessionValueSchema = z.string().max(64 * 1024);

export const sessionGetArgs = z.tuple([sessionKeySchema]);
export const sessionSetArgs = z.tuple([sessionKeySchema, sessionValueSchema]);
export const sessionRemoveArgs = z.tuple([sessionKeySchema]);
export const openExternalArgs = z.tuple([z.string().min(1).max(4096)]);
export const noArgs = z.tuple([]);

export const supabaseConfigSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  anonKey: z.string().min(1).max(4096),
}) satisfies z.ZodType<SupabaseConfig>;

/** What main answers on appConfig: the Supabase project, or why there is none (shown to the user). */
export type AppConfigResult = { ok: true; config: SupabaseConfig } | { ok: false; message: string };

export type { AuthDeepLink };

/**
 * The slice of Electron's ipcRenderer the preload uses. Declared here instead of importing Electron's
 * types so the renderer's type-check (DOM libs only) never pulls in Node and Electron declarations.
 */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}
