/**
 * Realtime on the local stack: the websocket at /realtime/v1/websocket of the API's HTTP server, as
 * supabase-js builds it (`ws://<api>/realtime/v1/websocket?apikey=<key>&vsn=2.0.0`). The socket needs a
 * project key, as behind hosted Supabase's gateway; each channel then authorises with its own token.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { LocalDb } from '../db/local-db';
import type { ApiKeys } from '../keys/api-keys';
import { sameKey } from '../gateway/api-key';
import { hostName } from '../gateway/host-check';
import { ChangeFeed } from './change-feed';
import { defaultLimits, SocketSession, type RealtimeLimits, type SessionHub } from './socket-session';
import type { Vsn } from './frames';

export const REALTIME_PATH = '/realtime/v1/websocket';
const captureSql = readFileSync(new URL('./capture.sql', import.meta.url), 'utf8');

export interface RealtimeOptions {
  db: LocalDb;
  keys: ApiKeys;
  jwtSecret: string;
  allowedHosts: ReadonlySet<string>;
  limits?: Partial<RealtimeLimits>;
}

export interface RealtimeServer {
  /** The current change feed (a restart makes a new one). */
  readonly feed: ChangeFeed;
  /** Open sockets (tests, benchmarks). */
  readonly sockets: number;
  /** Handles upgrades of an HTTP server (the API gateway's). */
  attach(server: Server): void;
  /**
   * Stops and starts the service as a deploy would: every socket is dropped and every subscription
   * forgotten; clients reconnect and join again (supabase-js does so by itself).
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function refuse(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

export async function startRealtime(options: RealtimeOptions): Promise<RealtimeServer> {
  const limits = { ...defaultLimits, ...options.limits };
  const sessions = new Set<SocketSession>();
  const startHub = async (): Promise<SessionHub> => {
    const feed = new ChangeFeed(options.db);
    feed.onRevoke = (revocation) => {
      for (const session of sessions) session.revoke(revocation);
    };
    await feed.start(captureSql);
    return { feed, jwtSecret: options.jwtSecret, limits, topics: new Map() };
  };
  let hub: SessionHub | undefined = await startHub();
  // 1 MB frames, as Realtime's websocket max_frame_size; a bigger one closes the socket (1009).
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const attached: { server: Server; listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void }[] = [];

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== REALTIME_PATH && url.pathname !== `${REALTIME_PATH}/`) return refuse(socket, 404, 'Not Found', 'no Route matched with those values');
    const host = hostName(request.headers.host ?? '');
    if (!host || !options.allowedHosts.has(host)) return refuse(socket, 403, 'Forbidden', 'Blocked request: the host name is not allowed.');
    const apiKey = url.searchParams.get('apikey') ?? (request.headers.apikey as string | undefined) ?? '';
    if (!apiKey) return refuse(socket, 401, 'Unauthorized', 'No API key found in request');
    const anon = sameKey(apiKey, options.keys.anonKey);
    const service = sameKey(apiKey, options.keys.serviceRoleKey);
    if (!anon && !service) return refuse(socket, 401, 'Unauthorized', 'Invalid API key');
    const current = hub;
    if (!current) return refuse(socket, 503, 'Service Unavailable', 'Realtime is restarting, please standby');
    const vsnParam = url.searchParams.get('vsn') ?? '1.0.0';
    if (vsnParam !== '1.0.0' && vsnParam !== '2.0.0') return refuse(socket, 400, 'Bad Request', `unsupported vsn ${vsnParam.slice(0, 20)}`);
    wss.handleUpgrade(request, socket, head, (ws) => {
      const session = new SocketSession(ws, vsnParam as Vsn, apiKey, current);
      sessions.add(session);
      ws.on('close', () => sessions.delete(session));
    });
  };

  const dropAll = async (): Promise<void> => {
    const stopping = hub;
    hub = undefined;
    for (const client of wss.clients) client.terminate();
    for (const session of sessions) session.dispose();
    sessions.clear();
    await stopping?.feed.stop();
  };

  return {
    get feed() {
      if (!hub) throw new Error('Realtime is restarting');
      return hub.feed;
    },
    get sockets() {
      return sessions.size;
    },
    attach(server) {
      server.on('upgrade', onUpgrade);
      attached.push({ server, listener: onUpgrade });
    },
    async restart() {
      await dropAll();
      hub = await startHub();
    },
    async stop() {
      for (const { server, listener } of attached) server.off('upgrade', listener);
      await dropAll();
      wss.close();
    },
  };
}
