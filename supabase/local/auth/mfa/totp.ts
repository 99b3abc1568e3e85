import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { errors } from '../auth-error';

/** GoTrue's TOTP parameters (pquerna/otp defaults it passes): SHA1, 6 digits, 30 s, one step of skew. */
const TOTP_OPTIONS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const SKEW_STEPS = 1;

export interface NewTotp {
  secret: string;
  uri: string;
  qrCode: string;
}

/** A fresh 160-bit secret (base32, as totp.Generate makes it), its otpauth:// URI and the QR code as SVG markup. */
export async function generateTotp(issuer: string, accountName: string): Promise<NewTotp> {
  const totp = new TOTP({ ...TOTP_OPTIONS, issuer, label: accountName, secret: new Secret({ size: 20 }) });
  const uri = totp.toString();
  // Error correction H, like GoTrue's qr.Encode(..., qr.H, ...): the code survives a smudged screen.
  // A very long issuer or email can exceed what a QR code holds: that is the caller's input, a 400, not a 500.
  const qrCode = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H', margin: 1 }).catch(() => {
    throw errors.validation('issuer and email are too long to fit in a QR code');
  });
  return { secret: totp.secret.base32, uri, qrCode };
}

/** True when the code matches the current 30-second step or the one before or after it. */
export function validTotpCode(secret: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const totp = new TOTP({ ...TOTP_OPTIONS, secret: Secret.fromBase32(secret) });
  return totp.validate({ token: code, window: SKEW_STEPS }) !== null;
}
