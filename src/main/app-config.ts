import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { supabaseConfigSchema, type AppConfigResult } from '../ipc-contract';

/**
 * Which Supabase project the desktop app talks to. IT either bakes it in at build time
 * (MAIN_VITE_SUPABASE_URL / MAIN_VITE_SUPABASE_ANON_KEY) or deploys a storewise.config.json
 * ({"url": "...", "anonKey": "..."}) to one of configFileCandidates; a deployed file wins, so one signed
 * build serves every environment. The anon key is public by design (RLS protects the data).
 */
export const CONFIG_FILE_NAME = 'storewise.config.json';

export function configFileCandidates(env: {
  platform: NodeJS.Platform;
  execPath: string;
  userData: string;
  override?: string | undefined;
}): string[] {
  const candidates: string[] = [];
  if (env.override) candidates.push(env.override);
  if (env.platform === 'darwin') candidates.push(path.join('/Library/Application Support/Storewise', CONFIG_FILE_NAME));
  else candidates.push(path.join(path.dirname(env.execPath), CONFIG_FILE_NAME)); // the install dir (NSIS, deb, AppImage's folder)
  candidates.push(path.join(env.userData, CONFIG_FILE_NAME));
  return candidates;
}

export async function resolveAppConfig(
  candidates: readonly string[],
  buildTime: { url?: string | undefined; anonKey?: string | undefined },
  read: (file: string) => Promise<string> = (file) => readFile(file, 'utf8'),
): Promise<AppConfigResult> {
  for (const file of candidates) {
    let raw: string;
    try {
      raw = await read(file);
    } catch {
      continue; // absent: try the next place
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return { ok: false, message: `Storewise configuration at ${file} is not valid JSON.` };
    }
    const parsed = supabaseConfigSchema.safeParse(json);
    if (!parsed.success) return { ok: false, message: `Storewise configuration at ${file} needs an http(s) "url" and an "anonKey".` };
    return { ok: true, config: parsed.data };
  }
  const baked = supabaseConfigSchema.safeParse(buildTime);
  if (baked.success) return { ok: true, config: baked.data };
  return {
    ok: false,
    message: `Storewise is not configured: ask IT to install ${CONFIG_FILE_NAME} with the Supabase URL and anon key.`,
  };
}
