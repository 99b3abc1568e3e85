import { createHmac } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { errors } from './storage-error';

/**
 * Signed URL tokens, as Storage makes them: a JWT {url:"<bucket>/<name>", exp} for downloads, plus
 * {owner, upsert} for uploads. The key is derived from the project's JWT secret, so a signed-URL token is never
 * an access token for the other APIs and an access token is never a signed URL.
 */
export interface SignedUrlPayload {
  url: string;
  owner?: string;
  upsert?: boolean;
  scope: 'download' | 'upload';
}

export class UrlSigner {
  private readonly key: Uint8Array;

  constructor(jwtSecret: string) {
    this.key = createHmac('sha256', jwtSecret).update('storewise storage url signing').digest();
  }

  sign(payload: SignedUrlPayload, expiresInSeconds: number): Promise<string> {
    return new SignJWT({ ...payload })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
      .sign(this.key);
  }

  /** The payload of a token for exactly this object and scope; Storage's errors otherwise. */
  async verify(token: string | undefined, url: string, scope: SignedUrlPayload['scope']): Promise<SignedUrlPayload> {
    if (!token) throw errors.invalidJwt('jwt must be provided');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw errors.invalidJwt('jwt expired');
      if (error instanceof joseErrors.JWSSignatureVerificationFailed) throw errors.invalidJwt('invalid signature');
      throw errors.invalidJwt('jwt malformed');
    }
    if (payload.url !== url || payload.scope !== scope) throw errors.invalidSignature();
    return payload as unknown as SignedUrlPayload;
  }
}
