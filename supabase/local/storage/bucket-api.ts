import { z } from 'zod';
import { parseFileSizeLimit, type BucketRow } from './bucket-rules';
import { checkBucketName } from './object-key';
import { parseBody } from './object-manage';
import { asCaller } from './object-rows';
import type { Caller, StorageDeps } from './storage-context';
import { errors, StorageError } from './storage-error';

const BUCKET_COLUMNS = 'id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type, created_at, updated_at';

const bucketFields = {
  public: z.boolean().optional(),
  file_size_limit: z.union([z.number(), z.string()]).nullable().optional(),
  allowed_mime_types: z.array(z.string().min(1).max(255)).max(100).nullable().optional(),
};
const createBody = z.object({
  id: z.string().optional(),
  name: z.string(),
  type: z.enum(['STANDARD', 'ANALYTICS', 'VECTOR']).optional(),
  ...bucketFields,
});
const updateBody = z.object(bucketFields);

/**
 * The bucket calls of storage-js (StorageBucketApi), each as the caller: storage.buckets has RLS with no policy
 * for the API roles, so as on hosted only the service role (or a project's own bucket policies) manages buckets.
 */
export async function listBuckets(deps: StorageDeps, caller: Caller) {
  const result = await asCaller(deps.db, { ...caller.ctx, readOnly: true }, (tx) =>
    tx.query<BucketRow>(`select ${BUCKET_COLUMNS} from storage.buckets order by name`),
  );
  return result.rows;
}

export async function getBucket(deps: StorageDeps, caller: Caller, id: string) {
  const result = await asCaller(deps.db, { ...caller.ctx, readOnly: true }, (tx) =>
    tx.query<BucketRow>(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id]),
  );
  if (!result.rows[0]) throw errors.noSuchBucket();
  return result.rows[0];
}

export async function createBucket(deps: StorageDeps, caller: Caller, body: unknown) {
  const input = parseBody(createBody, body);
  const id = checkBucketName(input.id ?? input.name);
  try {
    await asCaller(deps.db, caller.ctx, (tx) =>
      tx.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type)
         values ($1, $2, $3::uuid, $3, $4, $5, $6, $7::storage.buckettype)`,
        [id, checkBucketName(input.name), caller.userId, input.public ?? false, parseFileSizeLimit(input.file_size_limit),
          input.allowed_mime_types ?? null, input.type ?? 'STANDARD'],
      ),
    );
  } catch (error) {
    if (error instanceof StorageError && error.statusCode === 409) throw errors.bucketExists();
    throw error;
  }
  return { name: id };
}

export async function updateBucket(deps: StorageDeps, caller: Caller, id: string, body: unknown) {
  const input = parseBody(updateBody, body);
  const result = await asCaller(deps.db, caller.ctx, (tx) =>
    tx.query(
      `update storage.buckets
          set public = coalesce($2, public),
              file_size_limit = case when $3 then $4 else file_size_limit end,
              allowed_mime_types = case when $5 then $6 else allowed_mime_types end,
              updated_at = now()
        where id = $1 returning id`,
      [id, input.public ?? null, input.file_size_limit !== undefined, parseFileSizeLimit(input.file_size_limit),
        input.allowed_mime_types !== undefined, input.allowed_mime_types ?? null],
    ),
  );
  if (result.rows.length === 0) throw errors.noSuchBucket();
  return { message: 'Successfully updated' };
}

export async function emptyBucket(deps: StorageDeps, caller: Caller, id: string) {
  await getBucket(deps, caller, id);
  const deleted = await asCaller(deps.db, caller.ctx, (tx) =>
    tx.query<{ version: string | null }>('delete from storage.objects where bucket_id = $1 returning version', [id]),
  );
  await deps.files.remove(deleted.rows.map((row) => row.version));
  return { message: 'Successfully emptied' };
}

export async function deleteBucket(deps: StorageDeps, caller: Caller, id: string) {
  const count = await deps.db.query<{ n: number }>('select count(*)::int as n from storage.objects where bucket_id = $1', [id]);
  if ((count.rows[0]?.n ?? 0) > 0) throw errors.bucketNotEmpty();
  const result = await asCaller(deps.db, caller.ctx, (tx) => tx.query('delete from storage.buckets where id = $1 returning id', [id]));
  if (result.rows.length === 0) throw errors.noSuchBucket();
  return { message: 'Successfully deleted' };
}
