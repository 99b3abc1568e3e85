import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import { magicLinkEmail } from '../../../functions/_shared/auth-email';
import type { OutgoingMail } from '../../mail/mailbox';
import type { AuthDeps } from '../auth-deps';
import { AuthError } from '../auth-error';
import { assertCanSend, prepareAuthEmail } from '../emails';
import { assertMetadataSize } from '../metadata';
import { hashPassword } from '../passwords';
import { chooseRedirect } from '../redirects';
import { limit, readBody } from '../request-helpers';
import { findUserByEmail, insertUser } from '../user-store';
import { assertUserMayBeCreated } from '../before-user-created';
import { codeChallengeFields, emailField, metadata, pkceOf } from './schemas';

/*
 * POST /otp with an email (supabase-js signInWithOtp): GoTrue's magic link (internal/api/otp.go and
 * magic_link.go). A confirmed user gets a sign-in link (the recovery token, link type magiclink); an unknown
 * or unconfirmed address is signed up with a random password and gets the confirmation email, whose link
 * signs in too, unless create_user is false. The answer is {} either way. Storewise sends invitations this
 * way (docs/adr/0105): the link's redirect_to is the invitation's accept page. Phone OTP is not offered.
 */
const otpBody = z.object({
  email: emailField.optional(),
  phone: z.string().optional(),
  data: metadata.nullish(),
  create_user: z.boolean().optional(),
  channel: z.string().optional(),
  ...codeChallengeFields,
});

const otpDisabled = () => new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');

/** The magic link email lives with the other auth emails (shared with the hosted send-email hook). */
export { magicLinkEmail };

export function mountOtp(app: Hono, deps: AuthDeps): void {
  app.post('/otp', async (c) => {
    limit(c, deps, 'signupRecover');
    const body = await readBody(c, otpBody);
    if (!body.email) {
      if (body.phone) throw new AuthError(422, 'phone_provider_disabled', 'Unsupported phone provider');
      throw new AuthError(400, 'validation_failed', 'Only an email address or phone number should be provided');
    }
    const email = body.email;
    const createUser = body.create_user ?? true;
    const data = body.data ?? {};
    assertMetadataSize('user_metadata', data);
    const redirectTo = chooseRedirect(c.req.query('redirect_to'), deps.config.siteUrl, deps.config.additionalRedirectUrls);
    const pkce = pkceOf(body);
    // Hashed before the transaction (bcrypt runs off the HTTP thread); nobody ever learns this password.
    const existing = await findUserByEmail(deps.db, email);
    const passwordHash = existing ? undefined : await hashPassword(randomBytes(32).toString('base64url'));

    let mail: OutgoingMail | undefined;
    await deps.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email);
      if (user?.email_confirmed_at) {
        assertCanSend(deps, user, 'recovery');
        mail = await prepareAuthEmail(deps, tx, user, 'recovery', redirectTo, pkce, magicLinkEmail);
        return;
      }
      if (!createUser || !deps.config.enableSignup) throw otpDisabled();
      if (user) {
        // Unconfirmed: the confirmation email again (its link signs in), within the send interval.
        assertCanSend(deps, user, 'signup');
        mail = await prepareAuthEmail(deps, tx, user, 'signup', redirectTo, pkce);
        return;
      }
      const autoconfirm = deps.config.autoconfirm;
      await assertUserMayBeCreated(tx, { email: email, provider: 'email' });
      const created = await insertUser(tx, {
        email,
        passwordHash: passwordHash ?? (await hashPassword(randomBytes(32).toString('base64url'))),
        userMetadata: data,
        confirmed: autoconfirm,
      });
      mail = autoconfirm
        ? await prepareAuthEmail(deps, tx, created, 'recovery', redirectTo, pkce, magicLinkEmail)
        : await prepareAuthEmail(deps, tx, created, 'signup', redirectTo, pkce);
    });
    if (mail) await deps.mailer.send(mail);
    return c.json({});
  });
}
