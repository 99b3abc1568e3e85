import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
export function compressible(contentType: string): boolean {
  return /^(text\/|application\/(json|javascript|manifest\+json|xml)|image\/svg\+xml)/.test(contentType);
}

/**
 * The best encoding the client accepts (brotli over gzip), from Accept-Encoding with its q-values
 * ("br;q=0" refuses brotli, "*" accepts both); undefined for identity.
 */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q) || 0);
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/**
 * Compressed copies of the static files, made once per file version (path, size and mtime) and kept in
 * memory: a built web app is a few megabytes at most. Brotli at quality 9 is most of quality 11's gain
 * at a tenth of its time.
 */
export class CompressionCache {
  private readonly entries = new Map<string, { version: string; compressed: Promise<Buffer> }>();

  /** `version` changes when the file does (a rebuild while the server runs): the old copy is replaced. */
  get(file: string, version: string, body: Buffer, encoding: Encoding): Promise<Buffer> {
    const id = `${encoding}:${file}`;
    const cached = this.entries.get(id);
    if (cached?.version === version) return cached.compressed;
    const compressed =
      encoding === 'br'
        ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : gzipAsync(body, { level: 9 });
    this.entries.set(id, { version, compressed });
    // A failure is not kept: the next request tries again.
    compressed.catch(() => {
      if (this.entries.get(id)?.compressed === compressed) this.entries.delete(id);
    });
    return compressed;
  }
}
