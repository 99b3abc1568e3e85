import { servedInline } from './content-sniff';
import type { ObjectRow } from './object-rows';
import type { FileStore } from './file-store';
import { errors } from './storage-error';

/** "attachment" with the file's name, ASCII fallback plus RFC 5987 UTF-8 form. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function parseRange(header: string | null, size: number): { start: number; end: number } | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) throw errors.invalidRange();
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) throw errors.invalidRange();
  return { start, end };
}

/**
 * An object's bytes as Storage serves them: its Content-Type, Cache-Control, ETag and Last-Modified, plus what
 * keeps an upload from running as a page: nosniff, a sandboxing CSP, and Content-Disposition: attachment for all
 * but raster images (and whenever ?download is given, with the name it names).
 */
export async function objectResponse(
  files: FileStore,
  row: ObjectRow,
  request: Request,
  download: string | null,
): Promise<Response> {
  const metadata = row.metadata;
  const version = row.version!;
  const size = (await files.size(version)) ?? -1;
  if (size < 0 || !metadata) throw errors.noSuchKey();
  const mimeType = metadata.mimetype || 'application/octet-stream';
  const headers = new Headers({
    'content-type': mimeType,
    'cache-control': metadata.cacheControl || 'no-cache',
    etag: metadata.eTag,
    'last-modified': new Date(metadata.lastModified || row.updated_at).toUTCString(),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'accept-ranges': 'bytes',
  });
  const filename = row.name.split('/').pop() ?? row.name;
  if (download !== null) headers.set('content-disposition', attachment(download || filename));
  else if (!servedInline(mimeType)) headers.set('content-disposition', attachment(filename));

  if (request.headers.get('if-none-match') === metadata.eTag) return new Response(null, { status: 304, headers });
  const range = parseRange(request.headers.get('range'), size);
  const length = range ? range.end - range.start + 1 : size;
  headers.set('content-length', String(length));
  if (range) headers.set('content-range', `bytes ${range.start}-${range.end}/${size}`);
  const status = range ? 206 : 200;
  if (request.method === 'HEAD') return new Response(null, { status, headers });
  return new Response(files.open(version, range ?? { start: 0, end: size - 1 }), { status, headers });
}

/** GET /object/info: the object's details as storage-js's FileObjectV2. */
export function objectInfo(row: ObjectRow) {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: row.metadata?.size ?? null,
    content_type: row.metadata?.mimetype ?? null,
    cache_control: row.metadata?.cacheControl ?? null,
    etag: row.metadata?.eTag ?? null,
    metadata: row.user_metadata ?? {},
    last_modified: row.metadata?.lastModified ?? row.updated_at,
    created_at: row.created_at,
  };
}
