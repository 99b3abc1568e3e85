import { isReadOnlyRefusal, readOnlySentence } from '../../lib/read-only-refusal';

/** What supabase-js returns for every query: data or an error (a union of the two shapes). */
interface Result {
  data: unknown;
  error: { message: string; code?: string; details?: string | null } | null;
}

/** The error's words for people: read-only maintenance (ADR 0280) adds the admin's reason to its sentence. */
const messageOf = (error: NonNullable<Result['error']>) => (isReadOnlyRefusal(error) ? readOnlySentence(error) : error.message);

/** An error from the service, with its code kept for callers that branch on it. */
export class ServiceError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** The data of a query, or the query's error thrown, so no `{ error }` is silently dropped. */
export function unwrap<R extends Result>(result: R): NonNullable<R['data']> {
  if (result.error) throw new ServiceError(messageOf(result.error), result.error.code);
  const data: R['data'] = result.data;
  if (data === null || data === undefined) throw new ServiceError('The service returned no data.');
  return data;
}

/** As unwrap, for maybeSingle() reads where "no row" is a valid answer. */
export function unwrapMaybe<R extends Result>(result: R): NonNullable<R['data']> | null {
  if (result.error) throw new ServiceError(messageOf(result.error), result.error.code);
  const data: R['data'] = result.data;
  return data === null || data === undefined ? null : data;
}
