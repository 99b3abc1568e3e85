import { explainPasswordLimit } from './password-limit';

/** Shown when the auth service could not be reached or failed on its side (network error, 5xx). */
export const serviceUnavailableMessage = 'The Storewise service is not answering right now. Check your connection and try again.';

/**
 * The words to show for a failed auth call. supabase-js turns a network failure or any 5xx answer into an
 * AuthRetryableFetchError whose message is the serialised Response ("{}"), which means nothing to a
 * shop owner; every other error keeps the service's own message (the spec shows those as they are), except
 * the too-long-password refusal, whose "72 characters" really means 72 bytes (password-limit.ts).
 */
export function serviceMessage(error: { message: string; name?: string }): string {
  if (error.name === 'AuthRetryableFetchError' || error.message === '{}' || error.message.trim() === '') {
    return serviceUnavailableMessage;
  }
  return explainPasswordLimit(error.message);
}
