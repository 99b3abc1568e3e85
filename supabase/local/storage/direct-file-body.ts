import type { ServerResponse } from 'node:http';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { logUnexpected } from '../log-unexpected';

/**
 * Object downloads written from the file straight to Node's response (docs/adr/0442). FileStore.open gives a Web
 * stream, so a Response works wherever one is expected (app.fetch in tests, any server); when the stack's own
 * server sends that Response, sendWithFileBodies notices the stream is a file's and writes the file itself, after
 * the gateway's middleware (CORS, Vary) had its say on the headers:
 * - two buffers for the whole download, reused: the Web stream needed a fresh buffer per chunk, because it cannot
 *   know when the socket is done with one; here the write's callback says so. No allocation per chunk means no
 *   external memory for V8 to count and collect (ADR 0405 measured a mark-compact every ~7 MB from those).
 * - one file read ahead while the previous chunk goes to the socket, as before; nothing else between them.
 */

export interface FileSource {
  path: string;
  /** First byte, inclusive. */
  start: number;
  /** Past the last byte. */
  end: number;
  chunkSize: number;
}

const sources = new WeakMap<ReadableStream<Uint8Array>, FileSource>();

/** Marks a Web stream as the bytes start..end of a file, for sendWithFileBodies. */
export function markFileBody(stream: ReadableStream<Uint8Array>, source: FileSource): ReadableStream<Uint8Array> {
  sources.set(stream, source);
  return stream;
}

/** The file behind a response body made by FileStore.open, if it is one and nobody has read it yet. */
export function fileSourceOf(body: ReadableStream<Uint8Array> | null): FileSource | undefined {
  return body && !body.locked ? sources.get(body) : undefined;
}

type Fetch = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * Wraps a server's fetch: a response whose body is a file (FileStore.open) is written to Node's response directly;
 * every other response, and every response when there is no Node response (c.env.outgoing), passes as it is.
 */
export function sendWithFileBodies(fetch: Fetch): Fetch {
  return (request, env) => {
    const response = fetch(request, env);
    // A response the app made synchronously stays synchronous (@hono/node-server sends those on a faster path).
    return response instanceof Promise ? response.then((answer) => send(answer, env)) : send(response, env);
  };
}

function send(response: Response, env: unknown): Response | Promise<Response> {
  const outgoing = (env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  // Only object responses say Accept-Ranges; reading .body of any other would make @hono/node-server's light
  // Response build a full one for nothing.
  if (!outgoing || !response.headers.has('accept-ranges')) return response;
  const source = fileSourceOf(response.body);
  if (!source || !('writeHead' in outgoing)) return response;
  return (async () => {
    let handle: FileHandle;
    try {
      handle = await openFile(source.path, 'r');
    } catch {
      // Gone since its size was read (removed meanwhile): the Web stream fails as it always did.
      return response;
    }
    // The stream was never read, so its file was never opened: cancelling it only drops it.
    void response.body!.cancel().catch(() => undefined);
    outgoing.writeHead(response.status, headersOf(response.headers));
    await writeFile(source, handle, outgoing).catch((error: unknown) => {
      logUnexpected('Storewise storage: reading an object for a download failed', error);
      // The headers are sent: all that is left is to cut the connection, so the client sees a short body.
      outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    // @hono/node-server's answer for "the handler wrote the response itself": it sends nothing more.
    return RESPONSE_ALREADY_SENT;
  })();
}

function headersOf(headers: Headers): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, value] of headers) if (name !== 'set-cookie') record[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record['set-cookie'] = cookies;
  return record;
}

/**
 * The bytes of source (open as handle, closed here) into outgoing, then its end. Buffer A is read while buffer B is
 * on its way to the socket, and a buffer is read into again only after the socket called back for it. Resolves,
 * without reading on, when the client went away (a failed write or 'close'); rejects only when the file fails.
 */
async function writeFile(source: FileSource, handle: FileHandle, outgoing: ServerResponse): Promise<void> {
  let gone = false;
  let onClose = () => undefined as void;
  // A client that went away may leave a write's callback uncalled: waits end on 'close' too.
  const closed = new Promise<void>((resolve) => {
    onClose = () => {
      gone = true;
      resolve();
    };
  });
  outgoing.once('close', onClose);
  try {
    const size = Math.min(source.chunkSize, Math.max(1, source.end - source.start));
    const buffers = [Buffer.allocUnsafeSlow(size), Buffer.allocUnsafeSlow(size)];
    const written: (Promise<void> | undefined)[] = [undefined, undefined];
    let position = source.start;
    let turn = 0;
    while (position < source.end && !gone) {
      await Promise.race([written[turn], closed]);
      if (gone) break;
      const buffer = buffers[turn]!;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.byteLength, source.end - position), position);
      // The file is never shorter than its row says unless something outside the service cut it.
      if (bytesRead === 0) throw new Error('Storewise storage: object file ended before its size');
      position += bytesRead;
      // Not awaited here: the next read overlaps this write.
      written[turn] = new Promise<void>((resolve) => {
        outgoing.write(bytesRead === buffer.byteLength ? buffer : buffer.subarray(0, bytesRead), (error) => {
          // A write fails when the connection does: the client is gone, which is not the service's failure.
          if (error) gone = true;
          resolve();
        });
      });
      turn = 1 - turn;
    }
    await Promise.race([Promise.all(written), closed]);
    if (!gone) outgoing.end();
  } finally {
    outgoing.off('close', onClose);
    await handle.close();
  }
}
