import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { errors } from './storage-error';

export interface UploadBody {
  /** The file's bytes, not yet read. */
  stream: AsyncIterable<Uint8Array>;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
  /**
   * Reads and drops what is left of the request (up to a cap, then the connection is cut), so that a client
   * still sending sees the refusal instead of a reset connection.
   */
  discard(): Promise<void>;
}

const DISCARD_CAP = 64 * 1024 * 1024;
const DEFAULT_MIME = 'text/plain;charset=UTF-8';

/** Storage's cacheControl: a form field "3600" or a header "max-age=3600". */
function cacheControlOf(value: string | undefined | null): string {
  if (!value) return 'no-cache';
  return /^\d+$/.test(value.trim()) ? `max-age=${value.trim()}` : value.trim().slice(0, 200);
}

function parseMetadata(json: string | undefined | null): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw errors.invalidParameter('Invalid metadata: a JSON object is expected');
}

function decodeHeaderMetadata(header: string | null): Record<string, unknown> | null {
  if (!header) return null;
  return parseMetadata(Buffer.from(header, 'base64').toString('utf8'));
}

/**
 * The file of an upload request as storage-js sends it: a multipart form (Blob / File bodies; fields
 * cacheControl and metadata, then the file part) or the raw bytes with content-type, cache-control and
 * x-metadata headers. Nothing is buffered: the file part is handed over as a stream.
 */
export async function readUploadBody(request: Request, incoming?: Readable): Promise<UploadBody> {
  // Node's own request stream when the server hands it over (@hono/node-server's c.env.incoming): read directly, not
  // through the Web stream made of it and a Node stream made back of that (two hops per chunk; docs/adr/0322).
  const body = incoming ?? request.body;
  if (!body) throw errors.noContent();
  const contentType = request.headers.get('content-type') ?? '';
  const nodeBody = incoming ?? Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  const discard = async () => {
    nodeBody.unpipe();
    let size = 0;
    try {
      for await (const chunk of nodeBody) {
        size += (chunk as Uint8Array).byteLength;
        if (size > DISCARD_CAP) break;
      }
    } catch {
      // The client went away: nothing to drain.
    }
    nodeBody.destroy();
  };
  if (!/^multipart\/form-data/i.test(contentType)) {
    return {
      stream: nodeBody,
      mimeType: contentType || DEFAULT_MIME,
      cacheControl: cacheControlOf(request.headers.get('cache-control')),
      userMetadata: decodeHeaderMetadata(request.headers.get('x-metadata')),
      discard,
    };
  }
  return new Promise<UploadBody>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
      });
    } catch {
      reject(errors.invalidRequest('Malformed multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let settled = false;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (_name, file, info) => {
      if (settled) {
        file.resume();
        return;
      }
      settled = true;
      try {
        resolve({
          stream: file,
          mimeType: info.mimeType || DEFAULT_MIME,
          cacheControl: cacheControlOf(fields.cacheControl),
          userMetadata: parseMetadata(fields.metadata),
          discard,
        });
      } catch (error) {
        void discard();
        reject(error);
      }
    });
    parser.on('error', () => {
      if (!settled) {
        settled = true;
        reject(errors.invalidRequest('Malformed multipart body'));
      }
    });
    parser.on('close', () => {
      if (!settled) {
        settled = true;
        reject(errors.noContent());
      }
    });
    nodeBody.on('error', (error) => parser.destroy(error));
    nodeBody.pipe(parser);
  });
}
