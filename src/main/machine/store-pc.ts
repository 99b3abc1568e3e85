import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { IPC, machineSettingsSetArgs, noArgs, registerStateArgs, type StorePcStatus } from '../../ipc-contract';
import type { GuardedHandle } from '../printing/ipc';
import { startUpdates, type AppUpdaterLike, type UpdateController, type UpdateStatus } from '../updates/update-controller';
import {
  applyUserChange, defaultSettings, isPerMachineInstall, loadUserSettings, resolveSettings, saveUserSettings, USER_SETTINGS_FILE,
  type ResolvedSettings,
} from './desktop-settings';
import type { UserSettings } from './policy-schema';
import { loadMachinePolicy, type LoadedPolicy } from './machine-policy';
import { applyProxy, type ProxySession } from './proxy-config';

/**
 * The store PC as IT manages it (docs/adr/0270-0272), wired once at start: machine policy and user settings
 * resolved, the proxy applied to the app's sessions, automatic updates started with the install guard, and the
 * status the renderer shows and sends as the heartbeat. Electron's pieces come in as parameters.
 */

/**
 * The install's random id: electron-updater's own staging id file (.updaterId), so the device the admin panel
 * lists is the one the staged rollout decided about. Created here when updates are off and it does not exist.
 */
export const DEVICE_ID_FILE = '.updaterId';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function deviceId(
  userData: string,
  io: { readFile(file: string): Promise<string>; writeFile(file: string, text: string): Promise<void> },
): Promise<string> {
  const file = path.join(userData, DEVICE_ID_FILE);
  const existing = await io.readFile(file).then((text) => text.trim().toLowerCase(), () => null);
  if (existing && UUID.test(existing)) return existing;
  const id = randomUUID();
  await io.writeFile(file, id).catch(() => undefined); // unwritable: a new id next start, nothing worse
  return id;
}

export function describeUpdate(status: UpdateStatus): string {
  if ('phase' in status) {
    switch (status.phase) {
      case 'idle':
        return 'Up to date';
      case 'waiting':
        return `Version ${status.version} is ready: it installs when ${status.reason === 'installs when the app quits' ? 'Storewise quits' : `the shift is closed and every sale is sent (now: ${status.reason})`}`;
      case 'scheduled':
        return `Version ${status.version} installs in a minute (the shift is closed)`;
      case 'installing':
        return `Installing version ${status.version}`;
    }
  }
  switch (status.state) {
    case 'off':
      return `Automatic updates are off: ${status.reason}`;
    case 'checking':
      return 'Checking for updates';
    case 'up-to-date':
      return 'Up to date';
    case 'downloading':
      return `Downloading version ${status.version}`;
    case 'error':
      return 'The last update check failed; it is tried again later';
  }
}

const platformOf = (platform: NodeJS.Platform): StorePcStatus['platform'] =>
  platform === 'win32' || platform === 'darwin' ? platform : 'linux';
const archOf = (arch: string): StorePcStatus['arch'] => (arch === 'arm64' || arch === 'ia32' ? arch : 'x64');

export interface StorePcDeps {
  platform: NodeJS.Platform;
  arch: string;
  version: string;
  execPath: string;
  env: Record<string, string | undefined>;
  userData: string;
  readFile(file: string): Promise<string>;
  writeFile(file: string, text: string): Promise<void>;
  readRegistry?: () => Promise<string | null>;
  /** Saves the user's settings file (atomically in main); defaults to saveUserSettings. */
  saveSettings?: (file: string, settings: UserSettings) => Promise<void>;
  /** Every session the app talks through: the window's and electron-updater's. */
  sessions: readonly ProxySession[];
  updater: AppUpdaterLike;
  packaged: boolean;
  hasUpdateConfig: boolean;
  feedUrl: string | undefined;
  log?: (message: string) => void;
}

export interface StorePc {
  policy: LoadedPolicy;
  resolved: ResolvedSettings;
  updates: UpdateController;
  status(): StorePcStatus;
  reportRegister(state: { shiftOpen: boolean; unsentSales: number }): void;
  /** The user's own choice for a setting IT did not set or lock; refused for a locked one. */
  changeSettings(change: UserSettings): Promise<{ ok: true; message: string } | { ok: false; message: string }>;
}

export async function startStorePc(deps: StorePcDeps): Promise<StorePc> {
  const log = deps.log ?? ((message: string) => console.warn(message));
  const policy = await loadMachinePolicy({ platform: deps.platform, ProgramData: deps.env.ProgramData }, {
    readFile: deps.readFile,
    readRegistry: deps.readRegistry,
  });
  if (policy.problem) log(`Storewise: ${policy.problem}`);
  else if (policy.sources.length > 0) log(`Storewise: machine policy from ${policy.sources.join(' and ')}`);

  const userFile = path.join(deps.userData, USER_SETTINGS_FILE);
  const user = await loadUserSettings(userFile, deps.readFile);
  let userSettings = user.settings;
  if (user.problem) log(`Storewise: your desktop settings were ignored: ${user.problem}`);

  const resolved = resolveSettings({
    policy: policy.policy,
    policyBroken: policy.broken,
    user: user.settings,
    defaults: defaultSettings(isPerMachineInstall(deps.platform, deps.execPath, deps.env)),
  });

  try {
    await applyProxy(deps.sessions, resolved.settings.proxy);
  } catch (error) {
    log(`Storewise: the proxy could not be applied: ${error instanceof Error ? error.message : String(error)}`);
  }

  const id = await deviceId(deps.userData, deps);
  const updates = startUpdates({
    packaged: deps.packaged,
    hasUpdateConfig: deps.hasUpdateConfig,
    feedUrl: deps.feedUrl,
    settings: resolved.settings,
    autoUpdateSource: resolved.sources.autoUpdate,
    updater: deps.updater,
    log,
  });

  return {
    policy,
    resolved,
    updates,
    status: () => ({
      version: deps.version,
      channel: resolved.settings.updateChannel,
      platform: platformOf(deps.platform),
      arch: archOf(deps.arch),
      deviceId: id,
      autoUpdate: resolved.settings.autoUpdate,
      policyProblem: policy.problem,
      locked: resolved.locked,
      update: describeUpdate(updates.status()),
    }),
    reportRegister: (state) => updates.guard?.report(state),
    async changeSettings(change) {
      const applied = applyUserChange(userSettings, change, resolved.locked);
      if (!applied.ok) return { ok: false, message: `Set by your IT department: ${applied.refused.join(', ')}` };
      try {
        await (deps.saveSettings ?? saveUserSettings)(userFile, applied.settings);
      } catch (error) {
        log(`Storewise: your desktop settings could not be saved: ${error instanceof Error ? error.message : String(error)}`);
        return { ok: false, message: 'The settings could not be saved on this computer.' };
      }
      userSettings = applied.settings;
      // The updater was configured at start; the new channel and switch apply from the next start.
      return { ok: true, message: 'Saved. Storewise uses the new update settings from its next start.' };
    },
  };
}

/** The bridge's calls for the store PC: its status, and the register's shift and outbox for the update guard. */
export function registerStorePcHandlers(handle: GuardedHandle, storePc: Pick<StorePc, 'status' | 'reportRegister' | 'changeSettings'>): void {
  handle(IPC.machineStatus, noArgs, () => storePc.status());
  handle(IPC.registerState, registerStateArgs, ([state]) => {
    storePc.reportRegister(state);
    return true;
  });
  handle(IPC.machineSettingsSet, machineSettingsSetArgs, ([change]) => storePc.changeSettings(change));
}
