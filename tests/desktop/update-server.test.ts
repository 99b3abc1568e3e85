/**
 * Staged rollout and channels through electron-updater's own logic (its NsisUpdater: feed parsing, the staging id
 * in userData, isStagingMatch, the download with its sha512 check) against a loopback HTTP update server that
 * serves latest.yml / beta.yml the way electron-builder writes them. Only what needs Electron is faked: the app
 * (an AppAdapter with a temp userData) and Electron's net module (an executor that sends the HTTPS feed's
 * requests to the loopback server). The controller under test is the one main uses, with the install guard.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type ClientRequest, type IncomingMessage, type RequestOptions, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';
import { NsisUpdater } from 'electron-updater';
import { afterEach, describe, expect, it } from 'vitest';
import { startUpdates, type AppUpdaterLike, type UpdateStatus } from '../../src/main/updates/update-controller';

const FEED = 'https://updates.storewise.test/desktop/';
const INSTALLER = Buffer.from('not really an installer, but its sha512 is checked all the same');
const sha512 = createHash('sha512').update(INSTALLER).digest('base64');

/** latest.yml as electron-builder writes it, with the rollout share IT chose. */
function releaseYml(version: string, stagingPercentage: number | null) {
  return [
    `version: ${version}`,
    'files:',
    `  - url: Storewise-Setup-${version}.exe`,
    `    sha512: ${sha512}`,
    `    size: ${INSTALLER.length}`,
    `path: Storewise-Setup-${version}.exe`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-12-01T10:00:00.000Z'",
    ...(stagingPercentage === null ? [] : [`stagingPercentage: ${stagingPercentage}`]),
    '',
  ].join('\n');
}

interface UpdateServer {
  port: number;
  requests: { path: string; stagingId: string | undefined }[];
  close(): Promise<void>;
}

async function updateServer(files: Record<string, string | Buffer>): Promise<UpdateServer> {
  const requests: UpdateServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const name = (req.url ?? '/').replace(/^\/desktop\//, '/').split('?')[0] as string;
    requests.push({ path: name, stagingId: req.headers['x-user-staging-id'] as string | undefined });
    // Every installer the ymls name is the same bytes (their sha512 is in the yml).
    const body = name.endsWith('.exe') ? INSTALLER : files[name.slice(1)];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** Stands in for Electron's net module: the feed's HTTPS requests go to the loopback server. */
class LoopbackExecutor extends HttpExecutor<ClientRequest> {
  constructor(private readonly port: number) {
    super();
  }
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request({ ...options, protocol: 'http:', hostname: '127.0.0.1', host: undefined, port: this.port, agent: undefined }, callback);
  }

  /** What electron-updater's ElectronHttpExecutor.download does, over the request above. */
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers || undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(requestOptions, {
        destination,
        options,
        onCancel,
        callback: (error) => (error == null ? resolve(destination) : reject(error)),
        responseHandler: null,
      }, 0);
    });
  }
}

/** electron-updater's AppAdapter (what it needs of Electron's app), as its constructor takes it. */
type AppAdapter = NonNullable<ConstructorParameters<typeof NsisUpdater>[1]>;

const temporary: string[] = [];
const servers: UpdateServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function installedApp(version: string, stagingId?: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'storewise-updater-'));
  temporary.push(dir);
  // app-update.yml as electron-builder writes it into resources (no publisherName: no Windows signature check here).
  await writeFile(path.join(dir, 'app-update.yml'), `provider: generic\nurl: ${FEED}\nupdaterCacheDirName: storewise-updater\n`);
  if (stagingId) await writeFile(path.join(dir, '.updaterId'), stagingId);
  const app: AppAdapter = {
    version,
    name: 'Storewise',
    isPackaged: true,
    appUpdateConfigPath: path.join(dir, 'app-update.yml'),
    userDataPath: dir,
    baseCachePath: path.join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
  return app;
}

async function run(options: { files: Record<string, string | Buffer>; channel?: 'stable' | 'beta'; stagingId?: string; version?: string }) {
  const server = await updateServer(options.files);
  servers.push(server);
  const updater = new NsisUpdater(null, await installedApp(options.version ?? '1.4.0', options.stagingId));
  updater.logger = null;
  // The two fakes for what only Electron provides: its network stack, and restarting into the installer.
  Object.assign(updater, { httpExecutor: new LoopbackExecutor(server.port) });
  // Read the feed as the Windows build does (latest.yml, beta.yml; -linux / -mac on those systems), whatever runs the test.
  Object.assign(updater, { _testOnlyOptions: { platform: 'win32' } });
  const installs: unknown[][] = [];
  updater.quitAndInstall = (...args: unknown[]) => void installs.push(args);
  const statuses: UpdateStatus[] = [];
  const timers: (() => void)[] = [];
  const controller = startUpdates({
    packaged: true,
    hasUpdateConfig: true,
    feedUrl: FEED,
    settings: { autoUpdate: true, updateChannel: options.channel ?? 'stable' },
    autoUpdateSource: 'default',
    updater: updater as unknown as AppUpdaterLike,
    setInterval: () => 0,
    clearInterval: () => undefined,
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => timers.splice(0),
    log: () => undefined,
    onStatus: (status) => statuses.push(status),
  });
  await controller.check();
  return { server, controller, statuses, installs, elapse: () => timers.splice(0).forEach((fn) => fn()) };
}

/** A staging id whose last four bytes place it at the bottom (0x00000000) or top (0xffffffff) of the rollout. */
const stagingIdAt = (lastBytes: '00000000' | 'ffffffff') => `7d2c0b8e-1c6f-4a51-9d44-3f0a${lastBytes}`;

describe('staged rollout with electron-updater against a loopback update server', () => {
  it('stagingPercentage 0: nobody takes the release, nothing is downloaded', async () => {
    const { server, controller } = await run({ files: { 'latest.yml': releaseYml('1.5.0', 0) } });
    expect(controller.status()).toEqual({ state: 'up-to-date', latest: '1.5.0' });
    expect(server.requests.map((r) => r.path)).toEqual(['/latest.yml']);
  });

  it('stagingPercentage 100: every install downloads it (sha512 checked), and the restart waits for the shift to close', async () => {
    const { server, controller, statuses, installs, elapse } = await run({ files: { 'latest.yml': releaseYml('1.5.0', 100) } });
    await expect.poll(() => controller.status(), { timeout: 10_000 }).toMatchObject({ phase: 'waiting', version: '1.5.0' });
    expect(statuses).toContainEqual({ state: 'downloading', version: '1.5.0' });
    expect(server.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/latest.yml', '/Storewise-Setup-1.5.0.exe']));

    controller.guard?.report({ shiftOpen: true, unsentSales: 3 });
    elapse();
    expect(installs).toEqual([]);
    controller.guard?.report({ shiftOpen: false, unsentSales: 3 });
    elapse();
    expect(installs).toEqual([]);
    controller.guard?.report({ shiftOpen: false, unsentSales: 0 });
    elapse();
    expect(installs).toEqual([[true, true]]);
  });

  it('50%: the install id in userData decides, and is sent to the server', async () => {
    const inside = await run({ files: { 'latest.yml': releaseYml('1.5.0', 50) }, stagingId: stagingIdAt('00000000') });
    await expect.poll(() => inside.controller.status(), { timeout: 10_000 }).toMatchObject({ phase: 'waiting', version: '1.5.0' });
    expect(inside.server.requests[0]).toEqual({ path: '/latest.yml', stagingId: stagingIdAt('00000000') });

    const outside = await run({ files: { 'latest.yml': releaseYml('1.5.0', 50) }, stagingId: stagingIdAt('ffffffff') });
    expect(outside.controller.status()).toEqual({ state: 'up-to-date', latest: '1.5.0' });
    expect(outside.server.requests.map((r) => r.path)).toEqual(['/latest.yml']);
  });

  it('a fresh install makes its own random staging id and keeps it', async () => {
    const first = await run({ files: { 'latest.yml': releaseYml('1.4.0', null) } });
    const id = first.server.requests[0]?.stagingId;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await first.controller.check();
    expect(first.server.requests[1]?.stagingId).toBe(id);
  });

  it('the beta channel reads beta.yml; stable never sees a beta release', async () => {
    const files = { 'latest.yml': releaseYml('1.4.0', null), 'beta.yml': releaseYml('1.5.0-beta.1', null) };
    const beta = await run({ files, channel: 'beta' });
    expect(beta.server.requests[0]?.path).toBe('/beta.yml');
    await expect.poll(() => beta.controller.status(), { timeout: 10_000 }).toMatchObject({ phase: 'waiting', version: '1.5.0-beta.1' });

    const stable = await run({ files, channel: 'stable' });
    expect(stable.server.requests.map((r) => r.path)).toEqual(['/latest.yml']);
    expect(stable.controller.status()).toEqual({ state: 'up-to-date', latest: '1.4.0' });
  });

  it('a release that is older than the install is not a downgrade', async () => {
    const { controller, server } = await run({ files: { 'latest.yml': releaseYml('1.5.0', 100) }, version: '1.6.0' });
    expect(controller.status()).toEqual({ state: 'up-to-date', latest: '1.5.0' });
    expect(server.requests.map((r) => r.path)).toEqual(['/latest.yml']);
  });
});
