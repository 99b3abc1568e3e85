/**
 * The auth service hashes passwords with bcrypt, which reads only the first 72 bytes, so GoTrue refuses
 * longer ones (hosted and local alike) with these words. The spec lets passwords run to 100 characters;
 * the forms keep that rule and its message, and add this one so a 73-100 byte password is refused on the
 * form, before the round trip, in the service's own words.
 */
export const passwordHashMaxBytes = 72;
export const passwordTooLongForService = 'Password cannot be longer than 72 characters';

export function fitsPasswordHash(password: string): boolean {
  return new TextEncoder().encode(password).length <= passwordHashMaxBytes;
}
