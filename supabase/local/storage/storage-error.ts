/**
 * Storage API errors in supabase/storage's shape: the body carries the meaningful status as a string
 * ({statusCode:"404", code:"NoSuchKey", error:"not_found", message:"Object not found"}) while the HTTP status is
 * 400 for every error that is not a 500, as Storage's error handler answers (StorageBackendError.userStatusCode).
 * storage-js reads both: error.status is the HTTP status, error.statusCode the body's.
 */
export class StorageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Storage's older "error" field; the code when it has none. */
    readonly error: string = code,
  ) {
    super(message);
  }

  body() {
    return { statusCode: String(this.statusCode), code: this.code, error: this.error, message: this.message };
  }

  /** The HTTP status Storage answers with. */
  httpStatus(): 400 | 500 {
    return this.statusCode === 500 ? 500 : 400;
  }
}

export const errors = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  duplicate: () => new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketExists: () => new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () => new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  entityTooLarge: () =>
    new StorageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size', 'Payload too large'),
  invalidMimeType: (mimeType: string) =>
    new StorageError(415, 'InvalidMimeType', `mime type ${mimeType} is not supported`, 'invalid_mime_type'),
  /** Our addition to Storage: the declared type and the file's first bytes disagree (an SVG named .png). */
  contentMismatch: (mimeType: string) =>
    new StorageError(415, 'InvalidMimeType', `mime type ${mimeType} does not match the file's content`, 'invalid_mime_type'),
  accessDenied: (message = 'new row violates row-level security policy') =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidBucketName: () => new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidJwt: (message: string) => new StorageError(400, 'InvalidJWT', message),
  invalidSignature: () => new StorageError(400, 'InvalidSignature', 'Invalid signature'),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  invalidParameter: (message: string) => new StorageError(400, 'InvalidParameter', message),
  missingParameter: (name: string) => new StorageError(400, 'MissingParameter', `Missing Required Parameter ${name}`),
  noContent: () => new StorageError(400, 'InvalidRequest', 'No content provided'),
  invalidRange: () => new StorageError(400, 'InvalidRange', 'invalid range provided', 'invalid_range'),
  internal: () => new StorageError(500, 'InternalError', 'Internal server error'),
};

export function storageErrorResponse(error: StorageError): Response {
  return Response.json(error.body(), { status: error.httpStatus() });
}

/** SQLSTATEs the database may answer a Storage call with, as Storage maps them. */
export function fromDatabaseError(error: unknown): StorageError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '42501') return errors.accessDenied();
  if (code === '23505') return errors.duplicate();
  if (code === '23503') return errors.noSuchBucket();
  // Heavy-call gate / statement timeout: a retryable answer rather than a 500.
  if (code === '57014') return new StorageError(544, 'DatabaseTimeout', 'The connection to the database timed out');
  if (typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'))) {
    return errors.invalidRequest('The request was refused by the database');
  }
  return undefined;
}
