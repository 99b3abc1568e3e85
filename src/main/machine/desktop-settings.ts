import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  SETTING_KEYS, describeIssues, userSettingsSchema, type DesktopSettings, type MachinePolicy, type SettingKey, type UserSettings,
} from './policy-schema';

/**
 * The settings the desktop app runs with (docs/adr/0271): machine policy, then the user's choices, then the
 * defaults. A key the policy sets, or lists in `locked`, is locked: the user's value is ignored and the
 * settings screen shows it as set by IT. While the policy is broken, auto-update is locked off.
 */

export const USER_SETTINGS_FILE = 'desktop-settings.json';

export type SettingSource = 'policy' | 'user' | 'default';

export interface ResolvedSettings {
  settings: DesktopSettings;
  locked: SettingKey[];
  sources: Record<SettingKey, SettingSource>;
}

/**
 * Where updates are on by default: not in a per-machine install (the MSI under Program Files), whose
 * files a user's updater could not replace anyway; IT updates those by deploying the next MSI.
 */
export function defaultSettings(perMachineInstall: boolean): DesktopSettings {
  return { updateChannel: 'stable', autoUpdate: !perMachineInstall, proxy: { mode: 'system' } };
}

/** A Windows install under Program Files is the per-machine (MSI) one; the per-user NSIS one is under AppData. */
export function isPerMachineInstall(platform: NodeJS.Platform, execPath: string, env: Record<string, string | undefined>): boolean {
  if (platform !== 'win32') return false;
  const under = (dir: string | undefined) =>
    Boolean(dir) && execPath.toLowerCase().startsWith(`${path.win32.normalize(dir as string).replace(/\\+$/, '').toLowerCase()}\\`);
  return under(env.ProgramFiles) || under(env['ProgramFiles(x86)']) || under(env.ProgramW6432);
}

export function resolveSettings(input: {
  policy: MachinePolicy | null;
  policyBroken: boolean;
  user: UserSettings;
  defaults: DesktopSettings;
}): ResolvedSettings {
  const { policy, user, defaults } = input;
  const locked = new Set<SettingKey>(policy?.locked ?? []);
  const settings = { ...defaults } as DesktopSettings;
  const sources = {} as Record<SettingKey, SettingSource>;
  for (const key of SETTING_KEYS) {
    const fromPolicy = policy?.[key];
    if (fromPolicy !== undefined) {
      locked.add(key);
      (settings as unknown as Record<SettingKey, unknown>)[key] = fromPolicy;
      sources[key] = 'policy';
    } else if (!locked.has(key) && user[key] !== undefined) {
      (settings as unknown as Record<SettingKey, unknown>)[key] = user[key];
      sources[key] = 'user';
    } else {
      sources[key] = 'default';
    }
  }
  if (input.policyBroken && !(policy?.autoUpdate === false)) {
    settings.autoUpdate = false;
    sources.autoUpdate = 'policy';
    locked.add('autoUpdate');
  }
  return { settings, locked: SETTING_KEYS.filter((key) => locked.has(key)), sources };
}

/** The user's settings file; absent is empty, a broken one is reported and treated as empty. */
export async function loadUserSettings(
  file: string,
  read: (file: string) => Promise<string> = (f) => readFile(f, 'utf8'),
): Promise<{ settings: UserSettings; problem: string | null }> {
  let raw: string;
  try {
    raw = await read(file);
  } catch {
    return { settings: {}, problem: null };
  }
  try {
    const parsed = userSettingsSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return { settings: parsed.data, problem: null };
    return { settings: {}, problem: `${file}: ${describeIssues(parsed.error)}` };
  } catch {
    return { settings: {}, problem: `${file} is not valid JSON` };
  }
}

/**
 * Changes the user's settings, refusing any locked key (main checks this, not the screen: the renderer is not
 * trusted). Returns the new user settings to save, or the keys that were refused.
 */
export function applyUserChange(
  current: UserSettings,
  change: UserSettings,
  locked: readonly SettingKey[],
): { ok: true; settings: UserSettings } | { ok: false; refused: SettingKey[] } {
  const refused = SETTING_KEYS.filter((key) => change[key] !== undefined && locked.includes(key));
  if (refused.length > 0) return { ok: false, refused };
  return { ok: true, settings: { ...current, ...change } };
}

/** Written to a temporary file then renamed, so a crash mid-write never leaves half a file. */
export async function saveUserSettings(file: string, settings: UserSettings): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
