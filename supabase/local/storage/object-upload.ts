import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { checkMimeType, sizeLimit } from './bucket-rules';
import { asCaller, findBucket, testAsCaller, writeObjectRow, type ObjectMetadata } from './object-rows';
import type { Caller, StorageDeps } from './storage-context';
import { readUploadBody } from './upload-body';

export type UploadMode = 'insert' | 'upsert' | 'update';

/**
 * Storage's upload, in its order: the bucket and its MIME rule, then the caller's permission tested with the
 * row they would write (rolled back), and only then the body, streamed to disk under the bucket's size limit and
 * checked by content; the row is written as the caller and the file kept only if that commits.
 */
export async function uploadObject(
  deps: StorageDeps,
  caller: Caller,
  request: Request,
  target: { bucket: string; key: string },
  mode: UploadMode,
  /** Node's request stream, when the server gives it (read directly: upload-body.ts). */
  incoming?: Readable,
): Promise<{ Id: string; Key: string }> {
  const bucket = await findBucket(deps.db, target.bucket);
  const body = await readUploadBody(request, incoming);
  let tempPath: string | undefined;
  try {
    checkMimeType(bucket, body.mimeType);
    const probe = {
      bucket: target.bucket,
      name: target.key,
      owner: caller.userId,
      version: randomUUID(),
      metadata: {},
      userMetadata: body.userMetadata,
    };
    await testAsCaller(deps.db, caller.ctx, async (tx) => {
      await writeObjectRow(tx, probe, mode);
    });
    const written = await deps.files.writeTemp(body.stream, sizeLimit(bucket, deps.maxFileSize), body.mimeType);
    tempPath = written.tempPath;
    const version = randomUUID();
    const now = new Date().toISOString();
    const metadata: ObjectMetadata = {
      eTag: written.eTag,
      size: written.size,
      mimetype: body.mimeType,
      cacheControl: body.cacheControl,
      lastModified: now,
      contentLength: written.size,
      httpStatusCode: 200,
    };
    await deps.files.keep(written.tempPath, version);
    tempPath = undefined;
    let result: { id: string; previous: string | null };
    try {
      result = await asCaller(deps.db, caller.ctx, (tx) =>
        writeObjectRow(tx, { ...probe, version, metadata }, mode),
      );
    } catch (error) {
      await deps.files.remove([version]);
      throw error;
    }
    if (result.previous && result.previous !== version) await deps.files.remove([result.previous]);
    return { Id: result.id, Key: `${target.bucket}/${target.key}` };
  } catch (error) {
    await body.discard();
    if (tempPath) await deps.files.discardTemp(tempPath);
    throw error;
  }
}
