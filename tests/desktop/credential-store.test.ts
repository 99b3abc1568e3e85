import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PERSISTENCE_WARNING } from '../../src/main/credential-store';

/**
 * The credential store against a REAL Secret Service: a private D-Bus session with gnome-keyring
 * (installed by .ci/run), HOME and XDG dirs in a temp folder so the developer's own keyring is never
 * touched. The work happens in a child process (keytar binds to the bus it finds at load time).
 */
const child = fileURLToPath(new URL('./keychain-child.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const home = mkdtempSync(path.join(tmpdir(), 'storewise-keychain-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface ChildReport {
  persistent: [boolean, boolean];
  warning: string | null;
  sameStoreReadBack: boolean;
  clearTextFiles: string[];
  keyringFiles: number;
  readBackMatches: boolean;
  readBackLength: number;
  rawHeadIsChunked: boolean;
  afterDelete: string | null;
  logs: string[];
}

function requireTool(tool: string) {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
  if (!found) {
    throw new Error(`${tool} is missing: install the Debian packages dbus-x11 and gnome-keyring (.ci/run does) to test the keychain.`);
  }
}

/** Environment without any bus or display of the developer's session. */
function isolatedEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config'), ...extra };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return env;
}

function runChild(command: string, args: string[], env: NodeJS.ProcessEnv): ChildReport {
  const stdout = execFileSync(command, args, { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as ChildReport;
}

describe('credential store with a real Secret Service', () => {
  it('stores a session, reads it back from a new store object, and deletes it', () => {
    requireTool('dbus-run-session');
    requireTool('gnome-keyring-daemon');
    const runtime = path.join(home, 'run');
    mkdirSync(runtime, { recursive: true, mode: 0o700 });
    const script = `echo -n storewise-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec node --import tsx "${child}" keyring-test.supabase.co`;
    const report = runChild('dbus-run-session', ['--', 'sh', '-c', script], isolatedEnv({ XDG_RUNTIME_DIR: runtime }));

    expect(report.logs).toEqual([]);
    expect(report.persistent).toEqual([true, true]);
    expect(report.warning).toBeNull();
    expect(report.readBackMatches).toBe(true);
    // The session is longer than Windows' 2560-byte limit, so it went through the chunked layout.
    expect(report.readBackLength).toBeGreaterThan(2560);
    expect(report.rawHeadIsChunked).toBe(true);
    expect(report.afterDelete).toBeNull();
    // Never in clear on disk: while stored, the keyring had written its (encrypted) file and no file held the token.
    expect(report.keyringFiles).toBeGreaterThan(0);
    expect(report.clearTextFiles).toEqual([]);
  });

  it('falls back to memory with a one-time warning when no keychain is reachable', () => {
    const report = runChild(process.execPath, ['--import', 'tsx', child, 'no-keychain.supabase.co'], isolatedEnv({}));
    expect(report.persistent).toEqual([false, false]);
    expect(report.warning).toBe(PERSISTENCE_WARNING);
    expect(report.sameStoreReadBack).toBe(true);
    // A restart (new store object) has nothing: the sign-in was not remembered.
    expect(report.readBackMatches).toBe(false);
    expect(report.logs[0]).toMatch(/OS keychain unavailable/);
  });
});
