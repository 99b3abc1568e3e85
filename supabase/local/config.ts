/**
 * Settings of the local stack, mirroring supabase/config.toml's [auth] section and GoTrue's defaults.
 * Tests override single fields through startStack({ auth: {...} }).
 */
export interface RateLimits {
  /** Window length for every limit below, in seconds (GoTrue counts per 5 minutes). */
  windowSeconds: number;
  /** POST /token (password, refresh, pkce) per IP and window. */
  token: number;
  /** POST /signup, POST /recover, PUT /user per IP and window. */
  signupRecover: number;
  /** GET/POST /verify per IP and window. */
  verify: number;
}

/** GoTrue's [auth.mfa] limits (internal/conf/configuration.go defaults). */
export interface MfaConfig {
  /** Challenge and verify requests per IP and minute, counted together. */
  challengeAndVerifyPerMinute: number;
  maxEnrolledFactors: number;
  maxVerifiedFactors: number;
  /** Seconds a challenge can be answered. */
  challengeExpiry: number;
  /** Seconds after which an unverified factor is removed (on the next enroll). */
  factorExpiry: number;
}

export const defaultMfaConfig: MfaConfig = {
  challengeAndVerifyPerMinute: 15,
  maxEnrolledFactors: 10,
  maxVerifiedFactors: 10,
  challengeExpiry: 300,
  factorExpiry: 300,
};

export interface AuthConfig {
  /** Where links fall back to when redirect_to is not allowed; the web origin. */
  siteUrl: string;
  /** Extra allowed redirect URLs (exact, or with * wildcards like the supabase CLI). */
  additionalRedirectUrls: string[];
  jwtExpiry: number;
  refreshTokenReuseInterval: number;
  enableSignup: boolean;
  /** enable_confirmations = false: sign-up returns a session right away. */
  autoconfirm: boolean;
  minimumPasswordLength: number;
  /** Seconds between two emails to the same address (GoTrue's smtp max_frequency, 60 s). */
  emailSendInterval: number;
  /** Lifetime of email links, in seconds. */
  otpExpiry: number;
  /** Lifetime of a PKCE auth code, in seconds. */
  flowStateExpiry: number;
  rateLimits: RateLimits;
  mfa: MfaConfig;
  /** Take the client IP from X-Forwarded-For (only behind a trusted proxy). */
  trustForwardedFor: boolean;
  /** Real Google OAuth instead of the local stand-in page. */
  google?: { clientId: string; clientSecret: string };
}

export const defaultRateLimits: RateLimits = { windowSeconds: 300, token: 150, signupRecover: 30, verify: 30 };

/** The deep links of the desktop app, always allowed as redirect targets. */
export const desktopRedirectUrls = ['storewise://auth/callback', 'storewise://auth/reset'];

/** The desktop renderer's origin (src/main/app-protocol.ts), allowed by CORS. */
export const desktopOrigin = 'app://storewise';

const rateLimitKeys = { token: 'token', signup_recover: 'signupRecover', verify: 'verify', window: 'windowSeconds' } as const;

/**
 * STOREWISE_AUTH_RATE_LIMITS="token=1000,signup_recover=300,verify=300,window=300" overrides GoTrue's
 * defaults (a long end-to-end run signs in far more often than one person does).
 */
export function rateLimitsFromEnv(value: string | undefined, base: RateLimits = defaultRateLimits): RateLimits {
  const limits = { ...base };
  for (const pair of (value ?? '').split(',')) {
    const [name = '', raw = ''] = pair.split('=').map((part) => part.trim());
    const key = rateLimitKeys[name as keyof typeof rateLimitKeys];
    const number = Number(raw);
    if (!key || !Number.isInteger(number) || number < 1) {
      if (name) throw new Error(`Storewise: bad STOREWISE_AUTH_RATE_LIMITS entry "${pair}"`);
      continue;
    }
    limits[key] = number;
  }
  return limits;
}

/** STOREWISE_AUTH_MFA_RATE_LIMIT=300 raises GoTrue's 15 challenge+verify requests per minute (long e2e runs). */
function mfaRateFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return defaultMfaConfig.challengeAndVerifyPerMinute;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`Storewise: bad STOREWISE_AUTH_MFA_RATE_LIMIT "${value}"`);
  return number;
}

export function defaultAuthConfig(siteUrl: string, env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const google =
    env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }
      : undefined;
  return {
    siteUrl,
    additionalRedirectUrls: [],
    jwtExpiry: 3600,
    refreshTokenReuseInterval: 10,
    enableSignup: true,
    autoconfirm: env.STOREWISE_AUTOCONFIRM === '1' || env.STOREWISE_AUTOCONFIRM === 'true',
    minimumPasswordLength: 6,
    emailSendInterval: 60,
    otpExpiry: 86_400,
    flowStateExpiry: 300,
    rateLimits: rateLimitsFromEnv(env.STOREWISE_AUTH_RATE_LIMITS),
    mfa: { ...defaultMfaConfig, challengeAndVerifyPerMinute: mfaRateFromEnv(env.STOREWISE_AUTH_MFA_RATE_LIMIT) },
    trustForwardedFor: env.STOREWISE_TRUST_PROXY === '1',
    ...(google ? { google } : {}),
  };
}
