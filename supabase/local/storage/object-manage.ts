import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { checkMimeType, sizeLimit } from './bucket-rules';
import { checkBucketName, checkObjectKey } from './object-key';
import { asCaller, findBucket, OBJECT_COLUMNS, readObjectRow, type ObjectRow } from './object-rows';
import type { Caller, StorageDeps } from './storage-context';
import { errors } from './storage-error';

export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw errors.invalidParameter(`body/${issue?.path.join('/') ?? ''} ${issue?.message ?? 'is invalid'}`.trim());
  }
  return parsed.data;
}

const listBody = z.object({
  prefix: z.string().max(1024).default(''),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  sortBy: z
    .object({
      column: z.enum(['name', 'updated_at', 'created_at', 'last_accessed_at']).default('name'),
      order: z.enum(['asc', 'desc', 'ASC', 'DESC']).default('asc'),
    })
    .default({ column: 'name', order: 'asc' }),
  search: z.string().max(1024).default(''),
});

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * POST /object/list/{bucket}: one folder level, as Storage's search(): the files directly under the prefix and
 * the folders (id and metadata null), only among the rows the caller's policies let them see.
 */
export async function listObjects(deps: StorageDeps, caller: Caller, bucket: string, body: unknown) {
  const options = parseBody(listBody, body ?? {});
  const prefix = options.prefix === '' || options.prefix.endsWith('/') ? options.prefix : `${options.prefix}/`;
  const order = options.sortBy.order.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const column = options.sortBy.column;
  const result = await asCaller(deps.db, { ...caller.ctx, readOnly: true }, (tx) =>
    tx.query(
      `with level as (
         select o.*, substr(o.name, length($2) + 1) as rest
           from storage.objects o
          where o.bucket_id = $1 and left(o.name, length($2)) = $2
            and lower(substr(o.name, length($2) + 1)) like lower($3) || '%' escape '\\'
       ), entries as (
         select split_part(rest, '/', 1) as name, null::uuid as id, null::timestamptz as updated_at,
                null::timestamptz as created_at, null::timestamptz as last_accessed_at, null::jsonb as metadata
           from level where position('/' in rest) > 0
          group by split_part(rest, '/', 1)
         union all
         select rest, id, updated_at, created_at, last_accessed_at, metadata
           from level where position('/' in rest) = 0
       )
       select * from entries order by ${column} ${order} nulls last, name ${order} limit $4 offset $5`,
      [bucket, prefix, likeEscape(options.search), options.limit, options.offset],
    ),
  );
  return result.rows;
}

const removeBody = z.object({ prefixes: z.array(z.string().max(1024)).min(1).max(1000) });

/** DELETE /object/{bucket} {prefixes}: what the caller may delete goes, rows and files; the rest is left. */
export async function removeObjects(deps: StorageDeps, caller: Caller, bucket: string, body: unknown) {
  const { prefixes } = parseBody(removeBody, body);
  const deleted = await asCaller(deps.db, caller.ctx, (tx) =>
    tx.query<ObjectRow>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
      [bucket, prefixes],
    ),
  );
  await deps.files.remove(deleted.rows.map((row) => row.version));
  return deleted.rows;
}

const moveBody = z.object({
  bucketId: z.string(),
  sourceKey: z.string(),
  destinationKey: z.string(),
  destinationBucket: z.string().optional().nullable(),
});

function moveTarget(body: unknown) {
  const parsed = parseBody(moveBody, body);
  return {
    bucket: checkBucketName(parsed.bucketId),
    source: checkObjectKey(parsed.sourceKey),
    destinationBucket: checkBucketName(parsed.destinationBucket || parsed.bucketId),
    destination: checkObjectKey(parsed.destinationKey),
  };
}

/** A file entering another bucket meets that bucket's rules. */
async function checkDestination(deps: StorageDeps, sourceBucket: string, destinationBucket: string, row: ObjectRow) {
  if (destinationBucket === sourceBucket) return;
  const bucket = await findBucket(deps.db, destinationBucket);
  if (row.metadata?.mimetype) checkMimeType(bucket, row.metadata.mimetype);
  if ((row.metadata?.size ?? 0) > sizeLimit(bucket, deps.maxFileSize)) throw errors.entityTooLarge();
}

/**
 * POST /object/move: a rename under the caller's UPDATE policy (old row USING, new row WITH CHECK). The
 * statements run one after another, never nested: PGlite has one connection.
 */
export async function moveObject(deps: StorageDeps, caller: Caller, body: unknown) {
  const target = moveTarget(body);
  const row = await asCaller(deps.db, { ...caller.ctx, readOnly: true }, (tx) => readObjectRow(tx, target.bucket, target.source));
  await checkDestination(deps, target.bucket, target.destinationBucket, row);
  await asCaller(deps.db, caller.ctx, async (tx) => {
    const moved = await tx.query(
      `update storage.objects set bucket_id = $3, name = $4, updated_at = now() where id = $1 and bucket_id = $2 returning id`,
      [row.id, target.bucket, target.destinationBucket, target.destination],
    );
    if (moved.rows.length === 0) throw errors.noSuchKey();
  });
  return { message: 'Successfully moved' };
}

/** POST /object/copy: a new object (INSERT policy) with a copy of the source's bytes (SELECT policy). */
export async function copyObject(deps: StorageDeps, caller: Caller, body: unknown) {
  const target = moveTarget(body);
  const source = await asCaller(deps.db, { ...caller.ctx, readOnly: true }, (tx) => readObjectRow(tx, target.bucket, target.source));
  await checkDestination(deps, target.bucket, target.destinationBucket, source);
  const version = randomUUID();
  await deps.files.copy(source.version!, version);
  try {
    const metadata = { ...source.metadata, lastModified: new Date().toISOString() };
    const inserted = await asCaller(deps.db, caller.ctx, (tx) =>
      tx.query<{ id: string }>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
         values ($1, $2, $3::uuid, $3, $4, $5::jsonb, $6::jsonb) returning id`,
        [target.destinationBucket, target.destination, caller.userId, version, JSON.stringify(metadata), JSON.stringify(source.user_metadata)],
      ),
    );
    return { Id: inserted.rows[0]!.id, Key: `${target.destinationBucket}/${target.destination}` };
  } catch (error) {
    await deps.files.remove([version]);
    throw error;
  }
}

const expiresIn = z.coerce.number().int().min(1).max(60 * 60 * 24 * 365 * 10);
const signBody = z.object({ expiresIn, transform: z.unknown().optional() });
const signManyBody = z.object({ expiresIn, paths: z.array(z.string().max(1024)).min(1).max(1000) });

// Unencoded, as Storage answers: storage-js encodes the URL it builds from this (encodeURI / new URL).
const encodePath = (bucket: string, key: string) => `${bucket}/${key}`;

/** POST /object/sign/{bucket}/{key}: only for an object the caller can read. */
export async function signObject(deps: StorageDeps, caller: Caller, target: { bucket: string; key: string }, body: unknown) {
  const { expiresIn: seconds } = parseBody(signBody, body);
  await asCaller(deps.db, { ...caller.ctx, readOnly: true }, (tx) => readObjectRow(tx, target.bucket, target.key));
  const token = await deps.signer.sign({ url: `${target.bucket}/${target.key}`, scope: 'download' }, seconds);
  return { signedURL: `/object/sign/${encodePath(target.bucket, target.key)}?token=${token}` };
}

/** POST /object/sign/{bucket} {paths}: one entry per path, an error for those the caller cannot read. */
export async function signObjects(deps: StorageDeps, caller: Caller, bucket: string, body: unknown) {
  const { expiresIn: seconds, paths } = parseBody(signManyBody, body);
  const visible = await asCaller(deps.db, { ...caller.ctx, readOnly: true }, (tx) =>
    tx.query<{ name: string }>('select name from storage.objects where bucket_id = $1 and name = any($2::text[])', [bucket, paths]),
  );
  const names = new Set(visible.rows.map((row) => row.name));
  return Promise.all(
    paths.map(async (path) => {
      if (!names.has(path)) return { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null };
      const token = await deps.signer.sign({ url: `${bucket}/${path}`, scope: 'download' }, seconds);
      return { error: null, path, signedURL: `/object/sign/${encodePath(bucket, path)}?token=${token}` };
    }),
  );
}

/** Storage's signed upload URLs are valid for two hours. */
const UPLOAD_URL_SECONDS = 2 * 60 * 60;

export async function signUpload(
  deps: StorageDeps,
  caller: Caller,
  target: { bucket: string; key: string },
  upsert: boolean,
  testPermission: () => Promise<void>,
) {
  await findBucket(deps.db, target.bucket);
  await testPermission();
  const token = await deps.signer.sign(
    { url: `${target.bucket}/${target.key}`, scope: 'upload', upsert, ...(caller.userId ? { owner: caller.userId } : {}) },
    UPLOAD_URL_SECONDS,
  );
  return { url: `/object/upload/sign/${encodePath(target.bucket, target.key)}?token=${token}`, token };
}
