import type { Db, Queryable, RequestContext } from '../db/types';
import type { BucketRow } from './bucket-rules';
import { errors, fromDatabaseError, StorageError } from './storage-error';

/**
 * The storage.objects and storage.buckets statements of the Storage service. Every call made for a user runs
 * inside db.asRequest, i.e. as that user's role with their JWT claims, so storage.objects' RLS policies decide,
 * exactly as in Storage (which runs its queries as the caller's role too).
 */
export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

export const OBJECT_COLUMNS =
  'id, bucket_id, name, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at';

/** Rolls a permission test back (Storage's testPermission). */
class TestOnly extends Error {}

/** Runs fn as the caller; database errors become Storage's. */
export async function asCaller<T>(db: Db, ctx: RequestContext, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.asRequest(ctx, fn);
  } catch (error) {
    if (error instanceof StorageError) throw error;
    const mapped = fromDatabaseError(error);
    if (mapped) throw mapped;
    throw error;
  }
}

/** Runs fn as the caller, then rolls back whatever it did: RLS answers before any byte is read. */
export async function testAsCaller(db: Db, ctx: RequestContext, fn: (tx: Queryable) => Promise<void>): Promise<void> {
  try {
    await asCaller(db, ctx, async (tx) => {
      await fn(tx);
      throw new TestOnly();
    });
  } catch (error) {
    if (!(error instanceof TestOnly)) throw error;
  }
}

export async function findBucket(db: Db, id: string): Promise<BucketRow> {
  const result = await db.query<BucketRow>('select * from storage.buckets where id = $1', [id]);
  const bucket = result.rows[0];
  if (!bucket) throw errors.noSuchBucket();
  return bucket;
}

export interface NewVersion {
  bucket: string;
  name: string;
  owner: string | null;
  version: string;
  metadata: ObjectMetadata | Record<string, never>;
  userMetadata: Record<string, unknown> | null;
}

/**
 * Inserts (or with upsert, replaces) the row of an object version. Returns its id and the version it replaced,
 * whose file the caller removes after the commit.
 */
export async function writeObjectRow(
  tx: Queryable,
  row: NewVersion,
  mode: 'insert' | 'upsert' | 'update',
): Promise<{ id: string; previous: string | null }> {
  const params = [row.bucket, row.name, row.owner, row.version, JSON.stringify(row.metadata), JSON.stringify(row.userMetadata)];
  if (mode === 'update') {
    const result = await tx.query<{ id: string; previous: string | null }>(
      `with previous as (select id, version from storage.objects where bucket_id = $1 and name = $2)
       update storage.objects o
          set version = $4, metadata = $5::jsonb, user_metadata = $6::jsonb, owner = $3::uuid, owner_id = $3,
              updated_at = now(), last_accessed_at = now()
         from previous p
        where o.id = p.id
       returning o.id, p.version as previous`,
      params,
    );
    const updated = result.rows[0];
    if (!updated) throw errors.noSuchKey();
    return updated;
  }
  const conflict =
    mode === 'upsert'
      ? `on conflict (bucket_id, name) do update
           set version = excluded.version, metadata = excluded.metadata, user_metadata = excluded.user_metadata,
               owner = excluded.owner, owner_id = excluded.owner_id, updated_at = now(), last_accessed_at = now()`
      : '';
  const result = await tx.query<{ id: string; previous: string | null }>(
    `with previous as (select version from storage.objects where bucket_id = $1 and name = $2)
     insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3::uuid, $3, $4, $5::jsonb, $6::jsonb)
     ${conflict}
     returning id, (select version from previous) as previous`,
    params,
  );
  return result.rows[0]!;
}

export async function readObjectRow(tx: Queryable, bucket: string, name: string): Promise<ObjectRow> {
  const result = await tx.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, name],
  );
  const row = result.rows[0];
  if (!row || !row.version) throw errors.noSuchKey();
  return row;
}

/** Live versions among these file names (the file store's sweep). */
export async function liveVersions(db: Db, versions: string[]): Promise<Set<string>> {
  const result = await db.query<{ version: string }>('select version from storage.objects where version = any($1::text[])', [versions]);
  return new Set(result.rows.map((row) => row.version));
}
