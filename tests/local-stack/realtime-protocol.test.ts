/**
 * The embedded Realtime server as the official supabase-js client (and a raw websocket, for what the
 * client hides) sees it: vsn 1.0.0 and 2.0.0, broadcast with self, ack and binary payloads, heartbeats and
 * the idle close, the per-socket channel limit, the project key, token expiry and refresh, column
 * privileges and DELETE through the table's policies, and a restart survived by the client's rejoin.
 */
import { SignJWT, decodeJwt } from 'jose';
import WebSocket from 'ws';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';
import { received, watch } from './realtime-helpers';

let stack: StackHandle;
const clients: SupabaseClient[] = [];
let owner1Token = '';
let owner2Token = '';
const IDLE_MS = 3000;

/** supabase-js with heartbeats faster than the shortened idle timeout. */
function client(options: { vsn?: string; token?: string } = {}): SupabaseClient {
  const created = createTestClient(stack, 'anon', { realtime: { heartbeatIntervalMs: 1000, ...(options.vsn ? { vsn: options.vsn } : {}) } });
  if (options.token) void created.realtime.setAuth(options.token);
  clients.push(created);
  return created;
}

async function tokenOf(email: string, password: string): Promise<string> {
  const signer = createTestClient(stack);
  const { data, error } = await signer.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw new Error(error?.message ?? 'no session');
  return data.session.access_token;
}

/** The same user's claims with another expiry, signed with the stack's secret. */
async function reissue(token: string, expiresInSeconds: number): Promise<string> {
  const { exp: _exp, iat: _iat, ...claims } = decodeJwt(token);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(now).setExpirationTime(now + expiresInSeconds)
    .sign(new TextEncoder().encode(stack.jwtSecret));
}

const sql = (text: string, params: unknown[] = []) => stack.db.query(text, params);

beforeAll(async () => {
  stack = await startStack({ realtime: { idleTimeoutMs: IDLE_MS, maxChannelsPerSocket: 5 } });
  owner1Token = await tokenOf(seedUsers.owner1.email, seedUsers.owner1.password);
  owner2Token = await tokenOf(seedUsers.owner2.email, seedUsers.owner2.password);
  // A live table of the test's own: column privileges (no `secret` for authenticated) and an owner policy.
  await stack.db.exec(`
    create table public.rt_notes (id int primary key, owner uuid not null, title text, secret text);
    alter table public.rt_notes enable row level security;
    create policy rt_notes_own on public.rt_notes for select to authenticated using (owner = (select auth.uid()));
    grant select (id, owner, title) on public.rt_notes to authenticated;
    alter publication supabase_realtime add table public.rt_notes;`);
  await stack.stack.realtime.feed.refreshPublication();
}, 300_000);

afterAll(async () => {
  for (const each of clients) await each.removeAllChannels();
  await stack?.stop();
});

const note = (id: number, owner: string, title = `note ${id}`) =>
  sql(`insert into public.rt_notes (id, owner, title, secret) values ($1, $2, $3, 'cost 42')`, [id, owner, title]);

describe('postgres_changes details', () => {
  it('sends only the columns the role may select, and the row only to whom RLS shows it', async () => {
    const one = await watch(client({ token: owner1Token }), [{ event: 'INSERT', schema: 'public', table: 'rt_notes' }]);
    const two = await watch(client({ token: owner2Token }), [{ event: 'INSERT', schema: 'public', table: 'rt_notes' }]);
    await note(1, seedUsers.owner1.id);
    await note(2, seedUsers.owner2.id);
    const mine = await received(one, (c) => c.new.id === 1);
    expect(mine.new).toEqual({ id: 1, owner: seedUsers.owner1.id, title: 'note 1' });
    await received(two, (c) => c.new.id === 2);
    expect(one.changes.map((c) => c.new.id)).toEqual([1]);
    expect(two.changes.map((c) => c.new.id)).toEqual([2]);
    await one.stop();
    await two.stop();
  });

  it('DELETE goes through the policies on the old row; the old record is the key unless REPLICA IDENTITY FULL', async () => {
    const one = await watch(client({ token: owner1Token }), [{ event: 'DELETE', schema: 'public', table: 'rt_notes' }]);
    await sql(`delete from public.rt_notes where id = 2`);
    await sql(`delete from public.rt_notes where id = 1`);
    const gone = await received(one, (c) => c.eventType === 'DELETE');
    expect(gone.old).toEqual({ id: 1 });
    await sql(`alter table public.rt_notes replica identity full`);
    await stack.stack.realtime.feed.refreshPublication();
    await note(3, seedUsers.owner1.id, 'full');
    await sql(`delete from public.rt_notes where id = 3`);
    const full = await received(one, (c) => c.old.id === 3);
    expect(full.old).toEqual({ id: 3, owner: seedUsers.owner1.id, title: 'full' });
    expect(one.changes.map((c) => c.old.id)).toEqual([1, 3]);
    await one.stop();
  });

  it('vsn 1.0.0 clients receive changes too', async () => {
    const v1 = await watch(client({ vsn: '1.0.0', token: owner1Token }), [{ event: '*', schema: 'public', table: 'rt_notes', filter: 'id=eq.4' }]);
    await note(5, seedUsers.owner1.id);
    await note(4, seedUsers.owner1.id);
    await received(v1, (c) => c.new.id === 4);
    expect(v1.changes.map((c) => c.new.id)).toEqual([4]);
    await v1.stop();
  });

  it('a table outside the publication is refused with a system error, as hosted Realtime does', async () => {
    const w = await watch(client({ token: owner1Token }), [{ event: '*', schema: 'public', table: 'variants' }]);
    await expect.poll(() => w.system.map((s) => s.status)).toContain('error');
    expect(w.system.find((s) => s.status === 'error')?.message).toMatch(/^Unable to subscribe to changes with given parameters/);
    await w.stop();
  });
});

describe('broadcast', () => {
  async function joinBroadcast(c: SupabaseClient, topic: string, config: { self?: boolean; ack?: boolean }) {
    const got: { event: string; payload: unknown }[] = [];
    const channel = c.channel(topic, { config: { broadcast: config } });
    channel.on('broadcast', { event: '*' }, (message) => got.push({ event: message.event as string, payload: message.payload }));
    await new Promise<void>((resolve, reject) => channel.subscribe((status, error) => (status === 'SUBSCRIBED' ? resolve() : error ? reject(error) : undefined)));
    return { channel, got };
  }

  it('fans out to the topic; self and ack as configured; binary payloads to vsn 2 and JSON to vsn 1', async () => {
    const sender = await joinBroadcast(client(), 'room-1', { self: false, ack: true });
    const echo = await joinBroadcast(client(), 'room-1', { self: true });
    const v1 = await joinBroadcast(client({ vsn: '1.0.0' }), 'room-1', {});
    const elsewhere = await joinBroadcast(client(), 'room-2', {});
    expect(await sender.channel.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } })).toBe('ok');
    await expect.poll(() => echo.got).toEqual([{ event: 'ping', payload: { n: 1 } }]);
    await expect.poll(() => v1.got).toEqual([{ event: 'ping', payload: { n: 1 } }]);
    expect(await echo.channel.send({ type: 'broadcast', event: 'self', payload: { n: 2 } })).toBe('ok');
    await expect.poll(() => echo.got.map((m) => m.event)).toEqual(['ping', 'self']);
    await expect.poll(() => sender.got.map((m) => m.event)).toEqual(['self']);
    const bytes = new Uint8Array([1, 2, 3, 250]).buffer;
    await sender.channel.send({ type: 'broadcast', event: 'bin', payload: bytes });
    await expect.poll(() => echo.got.length).toBe(3);
    expect(new Uint8Array(echo.got[2]!.payload as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3, 250]));
    expect(elsewhere.got).toEqual([]);
    // The vsn 1 socket cannot carry bytes: it got the JSON messages only.
    expect(v1.got.map((m) => m.event)).toEqual(['ping', 'self']);
  });
});

/** A raw socket, to see frames supabase-js hides. */
async function raw(query = `apikey=${encodeURIComponent('')}&vsn=2.0.0`): Promise<{ ws: WebSocket; frames: unknown[][]; closed: Promise<number> }> {
  const url = `${stack.apiUrl.replace('http', 'ws')}/realtime/v1/websocket?${query}`;
  const ws = new WebSocket(url);
  const frames: unknown[][] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as unknown[]));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  return { ws, frames, closed };
}
const key = () => `apikey=${stack.anonKey}&vsn=2.0.0`;

describe('the socket', () => {
  it('refuses a socket without a project key or with a wrong one', async () => {
    await expect(raw('vsn=2.0.0')).rejects.toThrow('HTTP 401');
    await expect(raw('apikey=nope&vsn=2.0.0')).rejects.toThrow('HTTP 401');
  });

  it('answers heartbeats and closes a socket that goes silent', async () => {
    const { ws, frames, closed } = await raw(key());
    ws.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', {}]));
    await expect.poll(() => frames).toContainEqual([null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
    ws.send(JSON.stringify(['9', '2', 'realtime:nowhere', 'broadcast', {}]));
    await expect.poll(() => frames).toContainEqual(['9', '2', 'realtime:nowhere', 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }]);
    // No more messages: the server closes the socket after the idle timeout.
    await expect(Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open'), IDLE_MS * 3))])).resolves.not.toBe('still open');
  });

  it('limits channels per socket with Realtime\'s error', async () => {
    const { ws, frames } = await raw(key());
    for (let index = 1; index <= 6; index++) {
      ws.send(JSON.stringify([String(index), String(index), `realtime:limit-${index}`, 'phx_join', { config: { broadcast: {}, postgres_changes: [] }, access_token: owner1Token }]));
    }
    await expect.poll(() => frames.filter((frame) => frame[3] === 'phx_reply').length).toBe(6);
    const replies = frames.filter((frame) => frame[3] === 'phx_reply').map((frame) => (frame[4] as { status: string; response: unknown }));
    expect(replies.slice(0, 5).every((reply) => reply.status === 'ok')).toBe(true);
    expect(replies[5]).toEqual({ status: 'error', response: { reason: 'ChannelRateLimitReached: Too many channels' } });
    ws.close();
  });
});

describe('tokens', () => {
  it('refuses a join with an expired token', async () => {
    const expired = await reissue(owner1Token, -30);
    await expect(watch(client({ token: expired }), [{ event: '*', schema: 'public', table: 'rt_notes' }])).rejects.toThrow(/InvalidJWTToken: Token has expired \d+ seconds ago/);
  });

  it('ends the subscription when the token expires, unless a refreshed token arrives first', async () => {
    const short = await reissue(owner1Token, 2);
    const expiring = client({ token: short });
    const refreshed = client({ token: short });
    const a = await watch(expiring, [{ event: 'INSERT', schema: 'public', table: 'rt_notes' }]);
    const b = await watch(refreshed, [{ event: 'INSERT', schema: 'public', table: 'rt_notes' }]);
    await refreshed.realtime.setAuth(await reissue(owner1Token, 600));
    await expect.poll(() => a.system.map((s) => s.message), { timeout: 10_000 }).toContainEqual(expect.stringMatching(/^Token has expired/));
    await expect.poll(() => a.statuses).toContain('CLOSED');
    await note(10, seedUsers.owner1.id);
    await received(b, (c) => c.new.id === 10);
    expect(a.changes).toEqual([]);
    await b.stop();
  });
});

describe('restart', () => {
  it('the client reconnects and rejoins by itself and misses no change made after', async () => {
    const c = client({ token: owner1Token });
    const w = await watch(c, [{ event: 'INSERT', schema: 'public', table: 'rt_notes' }]);
    await stack.stack.realtime.restart();
    await expect.poll(() => w.statuses.filter((status) => status === 'SUBSCRIBED').length, { timeout: 20_000 }).toBe(2);
    await note(20, seedUsers.owner1.id);
    await received(w, (change) => change.new.id === 20);
    await w.stop();
  });
});
