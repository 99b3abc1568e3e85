import type { Hono } from 'hono';
import { z } from 'zod';
import type { AuthDeps } from '../auth-deps';
import { errors } from '../auth-error';
import { assertCanSend, prepareAuthEmail } from '../emails';
import { assertMetadataSize } from '../metadata';
import { hashPassword, newPasswordField } from '../passwords';
import { chooseRedirect } from '../redirects';
import { clientInfo, limit, readBody } from '../request-helpers';
import { issueSession } from '../sessions';
import { findUserByEmail, insertUser, obfuscatedUser, userJson } from '../user-store';
import { assertUserMayBeCreated } from '../before-user-created';
import type { OutgoingMail } from '../../mail/mailbox';
import { codeChallengeFields, emailField, metadata, pkceOf } from './schemas';

const signupBody = z.object({
  email: emailField,
  password: newPasswordField.optional(),
  data: metadata.nullish(),
  ...codeChallengeFields,
});

export function mountSignup(app: Hono, deps: AuthDeps): void {
  app.post('/signup', async (c) => {
    limit(c, deps, 'signupRecover');
    if (!deps.config.enableSignup) throw errors.signupDisabled();
    const body = await readBody(c, signupBody);
    if (!body.password) throw errors.validation('Signup requires a valid password');
    if (body.password.length < deps.config.minimumPasswordLength) throw errors.weakPassword(deps.config.minimumPasswordLength);
    const redirectTo = chooseRedirect(c.req.query('redirect_to'), deps.config.siteUrl, deps.config.additionalRedirectUrls);
    const data = body.data ?? {};
    assertMetadataSize('user_metadata', data);
    const passwordHash = await hashPassword(body.password);
    const { autoconfirm } = deps.config;

    let mail: OutgoingMail | undefined;
    const response = await deps.db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, body.email);
      if (existing?.email_confirmed_at) {
        if (autoconfirm) throw errors.userAlreadyExists();
        // Same answer as a new sign-up, so nobody learns the address is registered.
        return obfuscatedUser(body.email, data);
      }
      if (existing) {
        // Unconfirmed: like GoTrue, the user stays as it is (whoever signs up again has not proven the
        // address, so they may not set its password or metadata); only the confirmation email is sent
        // again, to the address, within the send interval.
        assertCanSend(deps, existing, 'signup');
        mail = await prepareAuthEmail(deps, tx, existing, 'signup', redirectTo, pkceOf(body));
        const refreshed = await findUserByEmail(tx, body.email);
        return userJson(tx, refreshed ?? existing);
      }
      await assertUserMayBeCreated(tx, { email: body.email, provider: 'email' });
      const user = await insertUser(tx, {
        email: body.email,
        passwordHash,
        userMetadata: data,
        confirmed: autoconfirm,
      });
      if (autoconfirm) return issueSession(deps, tx, user.id, 'password', clientInfo(c, deps));
      mail = await prepareAuthEmail(deps, tx, user, 'signup', redirectTo, pkceOf(body));
      const sent = await findUserByEmail(tx, body.email);
      return userJson(tx, sent ?? user);
    });
    if (mail) await deps.mailer.send(mail);
    return c.json(response);
  });
}
