/**
 * Phoenix channel frames as realtime-js (src/lib/serializer.ts) reads and writes them: vsn 2.0.0 text
 * frames are JSON arrays [join_ref, ref, topic, event, payload]; a client broadcast may come as a binary
 * frame of kind 3 (userBroadcastPush) and the server sends broadcasts to vsn 2 clients as kind 4
 * (userBroadcast). vsn 1.0.0 frames are JSON objects {join_ref, ref, topic, event, payload}.
 */

export type Vsn = '1.0.0' | '2.0.0';

export interface Frame {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast's user payload: JSON, or bytes when the client sent an ArrayBuffer. */
export type BroadcastBody = { kind: 'json'; value: unknown } | { kind: 'binary'; bytes: Uint8Array };

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

export class FrameError extends Error {}

function asRef(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw new FrameError('ref must be a string');
}

function checkedFrame(join_ref: unknown, ref: unknown, topic: unknown, event: unknown, payload: unknown): Frame {
  if (typeof topic !== 'string' || typeof event !== 'string') throw new FrameError('topic and event must be strings');
  return { join_ref: asRef(join_ref), ref: asRef(ref), topic, event, payload: payload ?? {} };
}

/** A text frame in either version's shape. */
export function decodeText(text: string, vsn: Vsn): Frame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FrameError('frame is not JSON');
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) throw new FrameError('a vsn 2.0.0 frame is a 5-element array');
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    return checkedFrame(joinRef, ref, topic, event, payload);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FrameError('a vsn 1.0.0 frame is an object');
  const object = parsed as Record<string, unknown>;
  return checkedFrame(object.join_ref, object.ref, object.topic, object.event, object.payload);
}

/**
 * A binary userBroadcastPush: kind, five lengths (join_ref, ref, topic, event, metadata), the encoding,
 * the five strings, then the payload. Answers a frame whose payload is {type, event, payload, meta?}.
 */
export function decodeBinary(bytes: Uint8Array): { frame: Frame; body: BroadcastBody } {
  if (bytes.length < 7 || bytes[0] !== KIND_USER_BROADCAST_PUSH) throw new FrameError('unknown binary frame');
  const lengths = [bytes[1]!, bytes[2]!, bytes[3]!, bytes[4]!, bytes[5]!];
  const encoding = bytes[6];
  let offset = 7;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const strings = lengths.map((length) => {
    if (offset + length > bytes.length) throw new FrameError('binary frame shorter than its lengths');
    const text = decoder.decode(bytes.subarray(offset, offset + length));
    offset += length;
    return text;
  });
  const [joinRef, ref, topic, event, metadata] = strings as [string, string, string, string, string];
  const rest = bytes.subarray(offset);
  let body: BroadcastBody;
  if (encoding === ENCODING_JSON) {
    try {
      body = { kind: 'json', value: JSON.parse(decoder.decode(rest)) };
    } catch {
      throw new FrameError('broadcast payload is not JSON');
    }
  } else if (encoding === ENCODING_BINARY) body = { kind: 'binary', bytes: rest.slice() };
  else throw new FrameError('unknown payload encoding');
  let meta: unknown;
  if (metadata) {
    try {
      meta = JSON.parse(metadata);
    } catch {
      throw new FrameError('broadcast metadata is not JSON');
    }
  }
  const payload = { type: 'broadcast', event, payload: body.kind === 'json' ? body.value : null, ...(meta ? { meta } : {}) };
  return { frame: { join_ref: joinRef || null, ref: ref || null, topic, event: 'broadcast', payload }, body };
}

export function encodeText(frame: Frame, vsn: Vsn): string {
  if (vsn === '2.0.0') return JSON.stringify([frame.join_ref, frame.ref, frame.topic, frame.event, frame.payload]);
  return JSON.stringify(frame);
}

/** Server-to-client broadcast for vsn 2 (kind 4): topic, event and metadata lengths, encoding, strings, payload. */
export function encodeUserBroadcast(topic: string, event: string, body: BroadcastBody, meta?: unknown): Uint8Array {
  const encoder = new TextEncoder();
  const topicBytes = encoder.encode(topic);
  const eventBytes = encoder.encode(event);
  const metaBytes = encoder.encode(meta === undefined ? '' : JSON.stringify(meta));
  const payloadBytes = body.kind === 'json' ? encoder.encode(JSON.stringify(body.value ?? {})) : body.bytes;
  if (topicBytes.length > 255 || eventBytes.length > 255 || metaBytes.length > 255) throw new FrameError('topic, event or metadata too long');
  const out = new Uint8Array(5 + topicBytes.length + eventBytes.length + metaBytes.length + payloadBytes.length);
  out.set([KIND_USER_BROADCAST, topicBytes.length, eventBytes.length, metaBytes.length, body.kind === 'json' ? ENCODING_JSON : ENCODING_BINARY]);
  let offset = 5;
  for (const part of [topicBytes, eventBytes, metaBytes, payloadBytes]) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A postgres_changes frame around a `data` object already in JSON: one change goes to many channels with the
 * same data (per role), so it is serialised once and only the envelope (topic, join_ref, ids) is per channel.
 * The text is what encodeText would give for payload {ids, data}.
 */
export function encodeChangeFrame(joinRef: string | null, topic: string, ids: number[], dataJson: string, vsn: Vsn): string {
  const payload = `{"ids":${JSON.stringify(ids)},"data":${dataJson}}`;
  if (vsn === '2.0.0') return `[${JSON.stringify(joinRef)},null,${JSON.stringify(topic)},"postgres_changes",${payload}]`;
  return `{"join_ref":${JSON.stringify(joinRef)},"ref":null,"topic":${JSON.stringify(topic)},"event":"postgres_changes","payload":${payload}}`;
}
