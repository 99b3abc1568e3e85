import type { Context } from 'hono';

/** An error answered the way GoTrue answers it: status, error code, message (and extra fields). */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
const API_VERSION = '2024-01-01';

/**
 * GoTrue's error body depends on the client's API version: with X-Supabase-Api-Version (supabase-js
 * always sends it) the body is {code, message} and the header is echoed; without it, the legacy
 * {code: status, error_code, msg}. Both carry x-sb-error-code.
 */
export function authErrorResponse(c: Context, error: AuthError): Response {
  const versioned = Boolean(c.req.header(API_VERSION_HEADER));
  const body = versioned
    ? { code: error.code, message: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
  const headers: Record<string, string> = { 'x-sb-error-code': error.code };
  if (versioned) headers[API_VERSION_HEADER] = API_VERSION;
  return c.json(body, error.status as 400, headers);
}

export const errors = {
  badJson: (detail: string) => new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${detail}`),
  validation: (message: string) => new AuthError(400, 'validation_failed', message),
  noAuthorization: () =>
    new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (detail: string) => new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  sessionNotFound: () => new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () => new AuthError(404, 'user_not_found', 'User not found'),
  notAdmin: () => new AuthError(403, 'not_admin', 'User not allowed'),
  rateLimited: () => new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailSendRateLimited: (seconds: number) =>
    new AuthError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  userBanned: () => new AuthError(400, 'user_banned', 'User is banned'),
  /** Verify, OAuth and bearer-token routes answer a ban with 403 (password sign-in with 400). */
  userBannedForbidden: () => new AuthError(403, 'user_banned', 'User is banned'),
  refreshUserBanned: () => new AuthError(400, 'user_banned', 'Invalid Refresh Token: User Banned'),
  weakPassword: (min: number) =>
    new AuthError(422, 'weak_password', `Password should be at least ${min} characters.`, {
      weak_password: { reasons: ['length'] },
    }),
  samePassword: () =>
    new AuthError(422, 'same_password', 'New password should be different from the old password.'),
  userAlreadyExists: () => new AuthError(422, 'user_already_exists', 'User already registered'),
  emailExists: () =>
    new AuthError(422, 'email_exists', 'A user with this email address has already been registered'),
  signupDisabled: () => new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance'),
  refreshTokenNotFound: () =>
    new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshTokenAlreadyUsed: () =>
    new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  flowStateNotFound: () =>
    new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found'),
  flowStateExpired: () => new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired'),
  badCodeVerifier: () =>
    new AuthError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier'),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid'),
  unsupportedProvider: () =>
    new AuthError(400, 'validation_failed', 'Unsupported provider: provider is not enabled'),
  unsupportedGrant: () =>
    new AuthError(400, 'unsupported_grant_type', 'unsupported_grant_type'),
  notFound: () => new AuthError(404, 'not_found', 'Not Found'),
  // Two-factor sign-in (GoTrue's internal/api/mfa.go wording).
  mfaFactorNotFound: () => new AuthError(404, 'mfa_factor_not_found', 'Factor not found'),
  mfaFactorIdNotUuid: () => new AuthError(404, 'validation_failed', 'factor_id must be an UUID'),
  mfaChallengeNotFound: () =>
    new AuthError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found'),
  mfaNameConflict: (name: string) =>
    new AuthError(422, 'mfa_factor_name_conflict', `A factor with the friendly name ${JSON.stringify(name)} for this user already exists`),
  mfaTooManyFactors: () =>
    new AuthError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue'),
  mfaEnrollNeedsAal2: () => new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor'),
  mfaUnenrollNeedsAal2: () => new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor'),
  mfaVerificationFailed: () => new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered'),
  mfaChallengeUsed: () => new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.'),
  mfaChallengeExpired: (id: string) =>
    new AuthError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`,
    ),
  anonymousNotAllowed: () =>
    new AuthError(403, 'no_authorization', 'Anonymous user not allowed to perform these actions'),
};
