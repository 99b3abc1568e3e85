/**
 * One websocket of Realtime's Phoenix protocol, as realtime-js speaks it: joins (`phx_join` with its
 * config and access_token), the join reply with the postgres_changes bindings in the client's order,
 * heartbeats on the `phoenix` topic, `access_token` refreshes, `broadcast` (self, ack) and `phx_leave`.
 * Error replies and system messages use hosted Realtime's wording (lib/realtime_web/channels/realtime_channel.ex).
 */
import type { WebSocket } from 'ws';
import { verifyJwt } from '../keys/verify-jwt';
import type { JwtClaims } from '../db/types';
import type { Binding, ChangeEvent, ChangeFeed, Revocation, Subscriber } from './change-feed';
import { parseFilter } from './filters';
import { decodeBinary, decodeText, encodeChangeFrame, encodeText, encodeUserBroadcast, FrameError, type BroadcastBody, type Frame, type Vsn } from './frames';

export interface RealtimeLimits {
  /** Realtime's max_channels_per_client (default 100). */
  maxChannelsPerSocket: number;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed, as Phoenix's transport does. */
  idleTimeoutMs: number;
  /** Client messages per second per socket before the channel is shut ("Too many messages per second"). */
  messagesPerSecond: number;
  /** Broadcast payload limit in bytes (the tenant's max_payload_size_in_kb). */
  maxBroadcastBytes: number;
}

export const defaultLimits: RealtimeLimits = { maxChannelsPerSocket: 100, idleTimeoutMs: 60_000, messagesPerSecond: 100, maxBroadcastBytes: 256 * 1024 };

/** What the sessions of one server share: the change feed, the JWT secret and the broadcast fan-out. */
export interface SessionHub {
  feed: ChangeFeed;
  jwtSecret: string;
  limits: RealtimeLimits;
  /** Every joined channel on every socket, by topic, for broadcasts. */
  topics: Map<string, Set<JoinedChannel>>;
}

export interface JoinedChannel {
  topic: string;
  joinRef: string | null;
  session: SocketSession;
  selfBroadcast: boolean;
  ackBroadcast: boolean;
  subscriber: Subscriber;
  accessToken: string;
  expiryTimer?: NodeJS.Timeout;
}

type EventName = ChangeEvent | '*';
const changeEvents = new Set<EventName>(['*', 'INSERT', 'UPDATE', 'DELETE']);

/** :erlang.phash2 stands behind hosted ids; any stable integer per params does (the client matches by it). */
function bindingId(params: Record<string, unknown>): number {
  const text = JSON.stringify(params, Object.keys(params).sort());
  let hash = 0;
  for (let index = 0; index < text.length; index += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(index)) >>> 0;
  return hash % 134217728;
}

type TokenCheck = { ok: true; claims: JwtClaims; role: string; exp: number } | { ok: false; message: string; code: string };

async function checkToken(token: string, secret: string): Promise<TokenCheck> {
  const check = await verifyJwt(token, secret);
  if (!check.ok) {
    if (check.reason === 'expired') {
      const exp = Number((JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString() || '{}') as { exp?: unknown }).exp);
      const ago = Number.isFinite(exp) ? Math.max(0, Math.floor(Date.now() / 1000) - exp) : 0;
      return { ok: false, code: 'InvalidJWTToken', message: `Token has expired ${ago} seconds ago` };
    }
    if (check.reason === 'invalid' && check.message.startsWith('JWSError')) return { ok: false, code: 'JwtSignatureError', message: 'Failed to validate JWT signature' };
    if (check.reason === 'invalid') return { ok: false, code: 'MalformedJWT', message: 'The token provided is not a valid JWT' };
    return { ok: false, code: 'Unauthorized', message: check.message };
  }
  const exp = check.claims.exp;
  if (typeof exp !== 'number') return { ok: false, code: 'InvalidJWTToken', message: 'Fields `role` and `exp` are required in JWT' };
  return { ok: true, claims: check.claims, role: check.role, exp };
}

/** A user's token names its sign-in session; once that session is revoked the token no longer opens a channel. */
const REVOKED = 'Token has been revoked';
const MEMBERSHIP_CHANGED = 'Access changed: join again';

/** checkToken, then the session the token belongs to must still exist (hosted checks only the expiry). */
async function checkLiveToken(token: string, hub: SessionHub): Promise<TokenCheck> {
  const checked = await checkToken(token, hub.jwtSecret);
  const session = checked.ok ? checked.claims.session_id : undefined;
  if (checked.ok && typeof session === 'string' && !(await hub.feed.sessionAlive(session))) {
    return { ok: false, code: 'InvalidJWTToken', message: REVOKED };
  }
  return checked;
}

export class SocketSession {
  private readonly channels = new Map<string, JoinedChannel>();
  private idleTimer?: NodeJS.Timeout;
  private windowStart = Date.now();
  private windowCount = 0;
  /** Frames are handled one after another: a broadcast sent right after a join must find the channel. */
  private inbox: Promise<void> = Promise.resolve();
  closed = false;

  constructor(
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
    /** The apikey the socket connected with: the token of a join without access_token. */
    private readonly apiKey: string,
    private readonly hub: SessionHub,
  ) {
    this.touch();
    ws.on('message', (data, isBinary) => {
      this.touch();
      this.inbox = this.inbox.then(() => this.receive(data as Buffer, isBinary)).catch(() => this.ws.close(1011, 'internal error'));
    });
    ws.on('close', () => this.dispose());
    ws.on('error', () => this.dispose());
  }

  private touch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.ws.terminate(), this.hub.limits.idleTimeoutMs);
    this.idleTimer.unref();
  }

  send(frame: Frame): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(encodeText(frame, this.vsn));
  }

  private reply(frame: Frame, status: 'ok' | 'error', response: unknown): void {
    this.send({ join_ref: frame.join_ref, ref: frame.ref, topic: frame.topic, event: 'phx_reply', payload: { status, response } });
  }

  private async receive(data: Buffer, isBinary: boolean): Promise<void> {
    let frame: Frame;
    let body: BroadcastBody | undefined;
    try {
      if (isBinary) ({ frame, body } = decodeBinary(new Uint8Array(data)));
      else frame = decodeText(data.toString('utf8'), this.vsn);
    } catch (error) {
      if (error instanceof FrameError) {
        // Phoenix closes a socket that sends what its serializer cannot read.
        this.ws.close(1003, error.message.slice(0, 100));
        return;
      }
      throw error;
    }
    if (frame.topic === 'phoenix' && frame.event === 'heartbeat') return this.reply(frame, 'ok', {});
    if (frame.event === 'phx_join') return this.join(frame);
    const channel = this.channels.get(frame.topic);
    if (!channel) return this.reply(frame, 'error', { reason: 'unmatched topic' });
    if (this.overRate()) return this.shutdown(channel, 'Too many messages per second');
    switch (frame.event) {
      case 'phx_leave':
        this.reply(frame, 'ok', {});
        this.leave(channel);
        return;
      case 'access_token':
        return this.refreshToken(channel, frame.payload);
      case 'broadcast':
        return this.broadcast(channel, frame, body ?? { kind: 'json', value: (frame.payload as { payload?: unknown })?.payload ?? {} });
      default:
        // Hosted logs and ignores other events (presence is not offered here).
        if (frame.event === 'presence') this.reply(frame, 'error', { reason: 'Presence is not enabled on this server' });
    }
  }

  private overRate(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    this.windowCount += 1;
    return this.windowCount > this.hub.limits.messagesPerSecond;
  }

  private async join(frame: Frame): Promise<void> {
    const topic = frame.topic;
    const error = (reason: string) => this.reply(frame, 'error', { reason });
    if (!topic.startsWith('realtime:')) return error('unmatched topic');
    const subTopic = topic.slice('realtime:'.length);
    if (!subTopic) return error('TopicNameRequired: You must provide a topic name');
    const payload = (frame.payload && typeof frame.payload === 'object' ? frame.payload : {}) as Record<string, unknown>;
    const config = (payload.config && typeof payload.config === 'object' ? payload.config : {}) as Record<string, unknown>;
    // Phoenix replaces a channel joined again on the same topic.
    const existing = this.channels.get(topic);
    if (existing) this.leave(existing, false);
    if (this.channels.size >= this.hub.limits.maxChannelsPerSocket) return error('ChannelRateLimitReached: Too many channels');

    const token = typeof payload.access_token === 'string' && !payload.access_token.startsWith('sb_') ? payload.access_token : this.apiKey;
    const checked = await checkLiveToken(token, this.hub);
    if (!checked.ok) return error(`${checked.code}: ${checked.message}`);
    // Private channels are authorised by RLS on realtime.messages, which this project has no policies on.
    if (config.private === true) return error(`Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`);

    const bindings: Binding[] = [];
    const replyBindings: Record<string, unknown>[] = [];
    const problems: string[] = [];
    const requested = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
    for (const raw of requested) {
      if (!raw || typeof raw !== 'object') continue;
      const params = raw as Record<string, unknown>;
      const id = bindingId(params);
      replyBindings.push({ ...params, id });
      const event = String(params.event ?? '*').toUpperCase() as EventName;
      const schema = typeof params.schema === 'string' ? params.schema : 'public';
      const table = typeof params.table === 'string' ? params.table : undefined;
      const filterText = typeof params.filter === 'string' && params.filter !== '' ? params.filter : undefined;
      const filter = filterText === undefined ? undefined : parseFilter(filterText);
      const known = schema === '*' || (table === undefined || table === '*' ? this.hub.feed.catalog.all().some((info) => info.schema === schema) : this.hub.feed.catalog.get(schema, table));
      const filterColumnOk = !filter || (table !== undefined && this.hub.feed.catalog.get(schema, table)?.columns.some((column) => column.name === filter.column));
      if (!changeEvents.has(event) || (filterText !== undefined && !filter) || !known || !filterColumnOk) {
        problems.push(`Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${[`event: ${String(params.event)}`, `schema: ${schema}`, ...(table ? [`table: ${table}`] : []), ...(filterText ? [`filters: [${filterText}]`] : [])].join(', ')}]`);
        continue;
      }
      bindings.push({ id, event, schema, ...(table !== undefined ? { table } : {}), ...(filter ? { filter } : {}) });
    }

    const channel: JoinedChannel = {
      topic,
      joinRef: frame.join_ref,
      session: this,
      selfBroadcast: (config.broadcast as { self?: unknown } | undefined)?.self === true,
      ackBroadcast: (config.broadcast as { ack?: unknown } | undefined)?.ack === true,
      accessToken: token,
      subscriber: {
        role: checked.role,
        claims: checked.claims,
        bindings,
        deliver: (ids, dataJson) => {
          if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
          this.ws.send(encodeChangeFrame(channel.joinRef, topic, ids, dataJson, this.vsn));
        },
      },
    };
    this.channels.set(topic, channel);
    let peers = this.hub.topics.get(topic);
    if (!peers) this.hub.topics.set(topic, (peers = new Set()));
    peers.add(channel);
    this.armExpiry(channel, checked.exp);
    this.reply(frame, 'ok', { postgres_changes: replyBindings });
    if (bindings.length > 0) {
      this.hub.feed.add(channel.subscriber);
      this.system(channel, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
    }
    for (const problem of problems) this.system(channel, 'postgres_changes', 'error', problem);
  }

  private system(channel: JoinedChannel, extension: string, status: 'ok' | 'error', message: string): void {
    this.send({ join_ref: channel.joinRef, ref: null, topic: channel.topic, event: 'system', payload: { extension, status, message, channel: channel.topic.slice('realtime:'.length) } });
  }

  /** The token's expiry ends the channel unless a refreshed token arrives first. */
  private armExpiry(channel: JoinedChannel, exp: number): void {
    clearTimeout(channel.expiryTimer);
    const delay = Math.min(exp * 1000 - Date.now(), 3_600_000);
    channel.expiryTimer = setTimeout(() => {
      void checkToken(channel.accessToken, this.hub.jwtSecret).then((check) => {
        if (!this.channels.has(channel.topic) || this.channels.get(channel.topic) !== channel) return;
        if (check.ok) this.armExpiry(channel, check.exp);
        else this.shutdown(channel, check.message);
      });
    }, Math.max(0, delay));
    channel.expiryTimer.unref();
  }

  private async refreshToken(channel: JoinedChannel, payload: unknown): Promise<void> {
    const token = (payload as { access_token?: unknown } | null)?.access_token;
    if (typeof token !== 'string' || token.startsWith('sb_') || token === channel.accessToken) return;
    const checked = await checkLiveToken(token, this.hub);
    if (this.channels.get(channel.topic) !== channel) return;
    if (!checked.ok) return this.shutdown(channel, checked.message);
    channel.accessToken = token;
    channel.subscriber.role = checked.role;
    channel.subscriber.claims = checked.claims;
    this.armExpiry(channel, checked.exp);
  }

  private broadcast(channel: JoinedChannel, frame: Frame, body: BroadcastBody): void {
    const size = body.kind === 'binary' ? body.bytes.length : JSON.stringify(body.value ?? null).length;
    if (size > this.hub.limits.maxBroadcastBytes) {
      if (channel.ackBroadcast && frame.ref) this.reply(frame, 'error', { reason: 'Payload size exceeded' });
      return;
    }
    const event = String((frame.payload as { event?: unknown } | null)?.event ?? '');
    for (const peer of this.hub.topics.get(channel.topic) ?? []) {
      if (peer === channel && !channel.selfBroadcast) continue;
      peer.session.pushBroadcast(peer, event, body);
    }
    if (channel.ackBroadcast && frame.ref) this.reply(frame, 'ok', {});
  }

  pushBroadcast(channel: JoinedChannel, event: string, body: BroadcastBody): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.vsn === '2.0.0') this.ws.send(encodeUserBroadcast(channel.topic, event, body));
    // vsn 1 frames cannot carry bytes: a binary broadcast does not reach them.
    else if (body.kind === 'json') this.send({ join_ref: null, ref: null, topic: channel.topic, event: 'broadcast', payload: { type: 'broadcast', event, payload: body.value } });
  }

  /**
   * A revoked session ends its channels; a changed membership ends every channel of the user (what they may
   * see changed: the screen joins again and reloads what RLS now lets it read).
   */
  revoke(revocation: Revocation): void {
    for (const channel of [...this.channels.values()]) {
      const claims = channel.subscriber.claims;
      if (claims.sub !== revocation.user) continue;
      if (revocation.session !== undefined && claims.session_id !== revocation.session) continue;
      this.shutdown(channel, revocation.session !== undefined ? REVOKED : MEMBERSHIP_CHANGED);
    }
  }

  /** Hosted's shutdown_response: a system error, then the channel closes. */
  private shutdown(channel: JoinedChannel, message: string): void {
    this.system(channel, 'system', 'error', message);
    this.leave(channel);
  }

  private leave(channel: JoinedChannel, notify = true): void {
    clearTimeout(channel.expiryTimer);
    this.hub.feed.remove(channel.subscriber);
    this.hub.topics.get(channel.topic)?.delete(channel);
    if (this.hub.topics.get(channel.topic)?.size === 0) this.hub.topics.delete(channel.topic);
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic);
    if (notify) this.send({ join_ref: channel.joinRef, ref: channel.joinRef, topic: channel.topic, event: 'phx_close', payload: {} });
  }

  dispose(): void {
    if (this.closed) return;
    for (const channel of [...this.channels.values()]) this.leave(channel, false);
    this.closed = true;
    clearTimeout(this.idleTimer);
  }

  get channelCount(): number {
    return this.channels.size;
  }
}
