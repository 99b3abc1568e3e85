import { Hono, type Context } from 'hono';
import { verifyJwt } from '../keys/verify-jwt';
import { logUnexpected } from '../log-unexpected';
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from './bucket-api';
import { checkBucketName, splitBucketAndKey } from './object-key';
import { copyObject, listObjects, moveObject, removeObjects, signObject, signObjects, signUpload } from './object-manage';
import { objectInfo, objectResponse } from './object-response';
import { asCaller, readObjectRow, testAsCaller, writeObjectRow } from './object-rows';
import { uploadObject } from './object-upload';
import { callerContext, serviceCaller, type Caller, type StorageDeps } from './storage-context';
import { errors, StorageError, storageErrorResponse } from './storage-error';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Storage's JWT step: the bearer token (the anon key when signed out, as supabase-js sends it) gives the role
 * and claims the queries run with. Refused tokens are Storage's 403 with the verifier's reason.
 */
async function authenticate(request: Request, jwtSecret: string): Promise<Caller> {
  const header = request.headers.get('authorization');
  const token = header ? /^bearer\s+(\S+)$/i.exec(header.trim())?.[1] : (request.headers.get('apikey') ?? undefined);
  if (!token) throw errors.accessDenied("headers must have required property 'authorization'");
  const check = await verifyJwt(token, jwtSecret);
  if (!check.ok) throw errors.accessDenied(check.reason === 'expired' ? 'jwt expired' : check.message);
  return callerContext(check.role, check.claims);
}

async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw errors.invalidRequest('Body is not valid JSON');
  }
}

/** The part of the path after /storage/v1/object/<prefix>/, still percent-encoded. */
function after(rest: string, prefix: string): string | undefined {
  return rest.startsWith(prefix) ? rest.slice(prefix.length) : undefined;
}

/**
 * The embedded Storage API at /storage/v1: buckets and objects as storage-js v2 calls them, with Storage's
 * answers and error shapes (storage-error.ts). Routes are matched by hand, in Storage's order, because the
 * object routes take the rest of the path as the object's name.
 */
export function createStorageApp(deps: StorageDeps, jwtSecret: string): Hono {
  const app = new Hono();

  async function route(c: Context): Promise<Response> {
    const request = c.req.raw;
    const method = request.method === 'HEAD' ? 'HEAD' : request.method;
    const url = new URL(request.url);
    // The path as the client sent it: URL parsing would resolve "a/../b" into another folder silently,
    // while Storage refuses such a name.
    const node = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const incoming = node?.url;
    const rawPath = incoming ? incoming.split('?')[0]! : url.pathname;
    const rest = rawPath.replace(/^\/storage\/v1/, '');
    const caller = () => authenticate(request, jwtSecret);
    const json = (value: unknown) => c.json(value as object, 200);

    // ---- Buckets
    if (rest === '/bucket' || rest === '/bucket/') {
      if (method === 'GET') return json(await listBuckets(deps, await caller()));
      if (method === 'POST') return json(await createBucket(deps, await caller(), await jsonBody(request)));
    }
    const bucketMatch = /^\/bucket\/([^/]+)(\/empty)?\/?$/.exec(rest);
    if (bucketMatch) {
      const id = checkBucketName(decodeURIComponent(bucketMatch[1]!));
      if (bucketMatch[2]) {
        if (method === 'POST') return json(await emptyBucket(deps, await caller(), id));
      } else if (method === 'GET') return json(await getBucket(deps, await caller(), id));
      else if (method === 'PUT') return json(await updateBucket(deps, await caller(), id, await jsonBody(request)));
      else if (method === 'DELETE') return json(await deleteBucket(deps, await caller(), id));
    }

    if (!rest.startsWith('/object/')) return notFound();
    const objectPath = rest.slice('/object/'.length);

    // ---- Fixed names first (a bucket cannot be called "move", as in Storage)
    if (objectPath === 'move' && method === 'POST') return json(await moveObject(deps, await caller(), await jsonBody(request)));
    if (objectPath === 'copy' && method === 'POST') return json(await copyObject(deps, await caller(), await jsonBody(request)));

    const listOf = after(objectPath, 'list/');
    if (listOf !== undefined && method === 'POST') {
      return json(await listObjects(deps, await caller(), checkBucketName(decodeURIComponent(listOf.replace(/\/$/, ''))), await jsonBody(request)));
    }

    const info = after(objectPath, 'info/');
    if (info !== undefined && method === 'GET') {
      const isPublic = info.startsWith('public/');
      const target = splitBucketAndKey(info.replace(/^(public|authenticated)\//, ''));
      const row = isPublic
        ? await publicRow(target.bucket, target.key)
        : await asCaller(deps.db, { ...(await caller()).ctx, readOnly: true }, (tx) => readObjectRow(tx, target.bucket, target.key));
      return json(objectInfo(row));
    }

    const publicPath = after(objectPath, 'public/');
    if (publicPath !== undefined && (method === 'GET' || method === 'HEAD')) {
      const target = splitBucketAndKey(publicPath);
      return objectResponse(deps.files, await publicRow(target.bucket, target.key), request, url.searchParams.get('download'));
    }

    const uploadSign = after(objectPath, 'upload/sign/');
    if (uploadSign !== undefined) {
      const target = splitBucketAndKey(uploadSign);
      if (method === 'POST') {
        const who = await caller();
        const upsert = request.headers.get('x-upsert') === 'true';
        const test = () =>
          testAsCaller(deps.db, who.ctx, async (tx) => {
            await writeObjectRow(
              tx,
              { bucket: target.bucket, name: target.key, owner: who.userId, version: randomUUID(), metadata: {}, userMetadata: null },
              upsert ? 'upsert' : 'insert',
            );
          });
        return json(await signUpload(deps, who, target, upsert, test));
      }
      if (method === 'PUT') {
        const token = await deps.signer.verify(url.searchParams.get('token') ?? undefined, `${target.bucket}/${target.key}`, 'upload');
        const result = await uploadObject(deps, serviceCaller(token.owner ?? null), request, target, token.upsert ? 'upsert' : 'insert', node);
        return json({ Key: result.Key, Id: result.Id });
      }
    }

    const signPath = after(objectPath, 'sign/');
    if (signPath !== undefined) {
      if (method === 'POST' && !signPath.replace(/\/$/, '').includes('/')) {
        return json(await signObjects(deps, await caller(), checkBucketName(decodeURIComponent(signPath.replace(/\/$/, ''))), await jsonBody(request)));
      }
      const target = splitBucketAndKey(signPath);
      if (method === 'POST') return json(await signObject(deps, await caller(), target, await jsonBody(request)));
      if (method === 'GET' || method === 'HEAD') {
        await deps.signer.verify(url.searchParams.get('token') ?? undefined, `${target.bucket}/${target.key}`, 'download');
        const row = await asCaller(deps.db, serviceCaller(null).ctx, (tx) => readObjectRow(tx, target.bucket, target.key));
        return objectResponse(deps.files, row, request, url.searchParams.get('download'));
      }
    }

    const authenticated = after(objectPath, 'authenticated/');
    if (authenticated !== undefined && (method === 'GET' || method === 'HEAD')) {
      return download(authenticated, await caller(), request, url);
    }

    // ---- /object/{bucket} and /object/{bucket}/{name}
    if (!objectPath.includes('/') || objectPath.endsWith('/') && !objectPath.slice(0, -1).includes('/')) {
      const bucket = checkBucketName(decodeURIComponent(objectPath.replace(/\/$/, '')));
      if (method === 'DELETE') return json(await removeObjects(deps, await caller(), bucket, await jsonBody(request)));
      return notFound();
    }
    const target = splitBucketAndKey(objectPath);
    if (method === 'GET' || method === 'HEAD') return download(objectPath, await caller(), request, url);
    if (method === 'POST') {
      const upsert = request.headers.get('x-upsert') === 'true';
      return json(await uploadObject(deps, await caller(), request, target, upsert ? 'upsert' : 'insert', node));
    }
    if (method === 'PUT') return json(await uploadObject(deps, await caller(), request, target, 'update', node));
    if (method === 'DELETE') {
      const removed = await removeObjects(deps, await caller(), target.bucket, { prefixes: [target.key] });
      if (removed.length === 0) throw errors.noSuchKey();
      return json({ message: 'Successfully deleted' });
    }
    return notFound();
  }

  async function download(path: string, who: Caller, request: Request, url: URL): Promise<Response> {
    const target = splitBucketAndKey(path);
    const row = await asCaller(deps.db, { ...who.ctx, readOnly: true }, (tx) => readObjectRow(tx, target.bucket, target.key));
    return objectResponse(deps.files, row, request, url.searchParams.get('download'));
  }

  /** Public buckets are read without a policy, as Storage reads them (as its own superuser). */
  async function publicRow(bucket: string, key: string) {
    const found = await deps.db.query<{ public: boolean }>('select public from storage.buckets where id = $1', [bucket]);
    if (!found.rows[0]?.public) throw errors.noSuchBucket();
    return asCaller(deps.db, serviceCaller(null).ctx, (tx) => readObjectRow(tx, bucket, key));
  }

  function notFound(): Response {
    return Response.json({ statusCode: '404', code: 'not_found', error: 'Not Found', message: 'Route not found' }, { status: 404 });
  }

  app.all('*', async (c) => {
    try {
      return await route(c);
    } catch (error) {
      if (error instanceof StorageError) return storageErrorResponse(error);
      logUnexpected('Storewise storage: unexpected error', error);
      return storageErrorResponse(errors.internal());
    }
  });
  return app;
}
