import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { copyFile, open as openFile, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { finished, Readable } from 'node:stream';
import { join } from 'node:path';
import { contentMatches, SNIFF_BYTES } from './content-sniff';
import { markFileBody } from './direct-file-body';
import { errors } from './storage-error';

/**
 * Chunk size of the file streams, both ways (docs/adr/0322 and 0405). With the defaults (16 kB write buffer,
 * 64 kB reads) a 10 MB upload waited for 'drain' after every 64 kB socket chunk (160 sequential writes) and a
 * download crossed the Web-stream bridge in 160 steps: 8-15 MB/s on a loaded machine. One megabyte cuts both to
 * ten steps (fs.WriteStream gathers the buffered chunks into one writev) while memory stays bounded per transfer.
 */
export const STREAM_CHUNK = 1024 * 1024;

/** Past the limit the rest of an upload is read and dropped up to this cap, so the client reads the 413. */
const DRAIN_CAP = 64 * 1024 * 1024;

/** writev takes at most IOV_MAX (1024 on Linux) buffers per call. */
const IOV_MAX = 1024;

/** All of buffers at the file's current position: writev may write less than asked (a signal, a full disk). */
async function writeAll(handle: FileHandle, buffers: Uint8Array[]): Promise<void> {
  let rest = buffers;
  while (rest.length > 0) {
    const batch = rest.slice(0, IOV_MAX);
    let { bytesWritten } = await handle.writev(batch);
    rest = rest.slice(batch.length);
    const left: Uint8Array[] = [];
    for (const buffer of batch) {
      if (bytesWritten >= buffer.byteLength) bytesWritten -= buffer.byteLength;
      else {
        left.push(buffer.subarray(bytesWritten));
        bytesWritten = 0;
      }
    }
    rest = [...left, ...rest];
  }
}

export interface WrittenFile {
  tempPath: string;
  size: number;
  /** Storage's eTag: the MD5 of the content, quoted. */
  eTag: string;
}

/**
 * The bytes of every object version, under <root>/objects/<2 chars>/<version>. Names never reach the file
 * system (a version is a UUID the service makes), so no object name can point outside the folder. Uploads are
 * streamed to <root>/tmp first and renamed into place only once the size and content checks passed.
 */
export class FileStore {
  private readonly objectsDir: string;
  private readonly tempDir: string;

  constructor(readonly root: string) {
    this.objectsDir = join(root, 'objects');
    this.tempDir = join(root, 'tmp');
    mkdirSync(this.objectsDir, { recursive: true });
    mkdirSync(this.tempDir, { recursive: true });
  }

  pathOf(version: string): string {
    if (!/^[0-9a-f-]{36}$/.test(version)) throw new Error('Storewise storage: not a version id');
    return join(this.objectsDir, version.slice(0, 2), version);
  }

  /**
   * Streams body to a temporary file, chunk by chunk with backpressure (memory stays flat whatever the size).
   * Over the limit, or when the first bytes are not of the declared type, nothing is kept and the matching
   * Storage error is thrown after the rest of the body was drained (up to a cap).
   *
   * One pass per chunk, as it arrives (docs/adr/0442): count, sniff the first bytes, MD5, and queue the chunk
   * itself (no copy) for the next write; the queue goes to the file in one writev per STREAM_CHUNK with one write
   * in flight, and the body pauses while a full queue waits for it. The body is read in flowing mode: a `for await`
   * over a paused Node stream took everything buffered since the last step in one read(), which concatenated the
   * socket's chunks into a fresh buffer whenever more than one was waiting (a copy of those bytes, and garbage).
   */
  async writeTemp(body: Readable | AsyncIterable<Uint8Array>, limit: number, mimeType: string): Promise<WrittenFile> {
    const tempPath = join(this.tempDir, randomUUID());
    const handle = await openFile(tempPath, 'wx');
    const source = body instanceof Readable ? body : Readable.from(body);
    const hash = createHash('md5');
    let size = 0;
    let head = Buffer.alloc(0);
    let problem: 'too-large' | 'mismatch' | undefined;
    let queue: Uint8Array[] = [];
    let queued = 0;
    let writing: Promise<void> | undefined;
    let failure: unknown;
    try {
      await new Promise<void>((resolve, reject) => {
        let ended = false;
        let settled = false;
        const settle = (error?: unknown) => {
          if (settled) return;
          settled = true;
          source.off('data', onData);
          if (error === undefined) resolve();
          else reject(error);
        };
        const flush = () => {
          if (writing || settled) return;
          if (queued < STREAM_CHUNK && !(ended && queued > 0)) {
            if (ended) settle();
            return;
          }
          const batch = queue;
          queue = [];
          queued = 0;
          writing = writeAll(handle, batch).then(
            () => {
              writing = undefined;
              if (settled) return;
              source.resume();
              flush();
            },
            (error: unknown) => {
              writing = undefined;
              settle(error);
            },
          );
        };
        const onData = (chunk: Uint8Array) => {
          size += chunk.byteLength;
          if (problem) {
            // Drained past the cap: the connection is cut instead (the client is sending far too much).
            if (size > DRAIN_CAP) {
              source.destroy();
              settle();
            }
            return;
          }
          if (size > limit) {
            problem = 'too-large';
            return;
          }
          if (head.byteLength < SNIFF_BYTES) {
            head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.byteLength)]);
            if (head.byteLength >= SNIFF_BYTES && !contentMatches(mimeType, head)) {
              problem = 'mismatch';
              return;
            }
          }
          hash.update(chunk);
          queue.push(chunk);
          queued += chunk.byteLength;
          if (queued < STREAM_CHUNK) return;
          if (writing) source.pause();
          else flush();
        };
        source.on('data', onData);
        finished(source, (error) => {
          if (settled) return;
          if (error) {
            settle(error);
            return;
          }
          ended = true;
          flush();
        });
      });
    } catch (error) {
      failure = error;
    }
    await writing?.catch(() => undefined);
    await handle.close().catch((error: unknown) => (failure ??= error));
    if (failure === undefined && !problem && head.byteLength < SNIFF_BYTES && !contentMatches(mimeType, head)) problem = 'mismatch';
    if (failure !== undefined || problem) {
      await rm(tempPath, { force: true });
      if (failure !== undefined) throw failure;
      throw problem === 'too-large' ? errors.entityTooLarge() : errors.contentMismatch(mimeType);
    }
    return { tempPath, size, eTag: `"${hash.digest('hex')}"` };
  }

  /** Moves a checked upload to its version's place. */
  async keep(tempPath: string, version: string): Promise<void> {
    const target = this.pathOf(version);
    mkdirSync(join(target, '..'), { recursive: true });
    await rename(tempPath, target);
  }

  async discardTemp(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  async copy(fromVersion: string, toVersion: string): Promise<void> {
    const target = this.pathOf(toVersion);
    mkdirSync(join(target, '..'), { recursive: true });
    await copyFile(this.pathOf(fromVersion), target);
  }

  async remove(versions: Iterable<string | null | undefined>): Promise<void> {
    for (const version of versions) if (version) await rm(this.pathOf(version), { force: true });
  }

  /**
   * Bytes start..end (inclusive; end = start - 1 for none) of a version, as the Web stream a Response takes, read
   * straight from the file (docs/adr/0405): each pull reads the next piece into a fresh buffer that is handed to
   * the stream as it is. Readable.toWeb, used before, copied every chunk into a new Uint8Array on top of the
   * read, and its Node -> Web bridge added a hop per chunk. The buffer is STREAM_CHUNK or what is left of the
   * range, whichever is smaller (a 100-byte range or a small image does not allocate a 1 MB chunk); one chunk
   * is read ahead while the previous one is written, so memory stays about two chunks per download.
   * The file is opened at the first pull and closed at the end, on an error or when the client goes away.
   * The stack's own server does not read this stream: it writes the file to the socket itself (direct-file-body.ts).
   */
  open(version: string, range: { start: number; end: number }): ReadableStream<Uint8Array> {
    const path = this.pathOf(version);
    const end = range.end + 1;
    let position = range.start;
    let handle: FileHandle | undefined;
    const close = async () => {
      const open = handle;
      handle = undefined;
      await open?.close();
    };
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          if (position >= end) {
            await close();
            controller.close();
            return;
          }
          handle ??= await openFile(path, 'r');
          const buffer = Buffer.allocUnsafeSlow(Math.min(STREAM_CHUNK, end - position));
          const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, position);
          // The file is never shorter than its row says unless something outside the service cut it.
          if (bytesRead === 0) throw new Error('Storewise storage: object file ended before its size');
          position += bytesRead;
          controller.enqueue(bytesRead === buffer.byteLength ? buffer : buffer.subarray(0, bytesRead));
          if (position >= end) {
            await close();
            controller.close();
          }
        } catch (error) {
          await close().catch(() => undefined);
          controller.error(error);
        }
      },
      async cancel() {
        await close();
      },
    });
    return markFileBody(stream, { path, start: range.start, end, chunkSize: STREAM_CHUNK });
  }

  async size(version: string): Promise<number | undefined> {
    try {
      return (await stat(this.pathOf(version))).size;
    } catch {
      return undefined;
    }
  }

  /**
   * Files whose row is gone (deleted with a business, a crash between the rename and the commit) and
   * leftovers of interrupted uploads are removed. Files younger than minAgeMs are left alone: their
   * upload may still be committing.
   */
  async sweep(liveVersions: (versions: string[]) => Promise<Set<string>>, minAgeMs = 60_000): Promise<number> {
    const now = Date.now();
    let removed = 0;
    for (const name of await readdir(this.tempDir)) {
      const path = join(this.tempDir, name);
      if (now - (await stat(path)).mtimeMs > minAgeMs) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    for (const shard of await readdir(this.objectsDir)) {
      const versions = await readdir(join(this.objectsDir, shard));
      if (versions.length === 0) continue;
      const live = await liveVersions(versions);
      for (const version of versions) {
        if (live.has(version)) continue;
        const path = join(this.objectsDir, shard, version);
        if (now - (await stat(path)).mtimeMs > minAgeMs) {
          await rm(path, { force: true });
          removed += 1;
        }
      }
    }
    return removed;
  }
}
