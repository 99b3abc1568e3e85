/*
 * The auth service's emails, one copy for both deliverers: the local auth server (supabase/local/auth) and, on
 * hosted Supabase, the send-email function's auth hook (supabase/functions/send-email/auth-hook.ts), which GoTrue
 * calls instead of its own templates once [auth.hook.send_email] is on. Free of Node and Deno APIs, importing only
 * import-free modules (by their .ts names), so both runtimes load it as is.
 *
 * The emails carry the link only. GoTrue's templates can also show the 6-digit code ({{ .Token }}), but no
 * Storewise screen accepts a code, so printing it would send people looking for a field that does not exist.
 */
import { escapeHtml } from './email-html.ts';

export interface AuthEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What an invitation email says: the facts come from the database (invitation_email_facts), never the caller. */
export interface InvitationFacts {
  business_name: string;
  role: string;
  inviter_name: string | null;
  expires_at: string | Date;
}

function layout(title: string, intro: string, action: string, link: string, outro: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<h2>${escapeHtml(title)}</h2>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>
<p style="color:#555">${escapeHtml(outro)}</p>
<p style="color:#555">Storewise</p>
</body></html>`;
}

function mail(to: string, title: string, intro: string, action: string, link: string, outro: string): AuthEmail {
  return { to, subject: title, text: `${title}\n\n${intro}\n${link}\n\n${outro}\n`, html: layout(title, intro, action, link, outro) };
}

export function confirmationEmail(to: string, link: string): AuthEmail {
  return mail(to, 'Confirm your Storewise account', 'Welcome to Storewise! Follow this link to confirm your email address:',
    'Confirm your email', link, 'If you did not create a Storewise account, you can ignore this email.');
}

export function recoveryEmail(to: string, link: string): AuthEmail {
  return mail(to, 'Reset your Storewise password',
    'Someone asked to reset the password of your Storewise account. Follow this link to choose a new one:',
    'Reset your password', link, 'If you did not ask for this, you can ignore this email: your password stays the same.');
}

/** The magic link email (kept in step with [auth.email.template.magic_link] on hosted). */
export function magicLinkEmail(to: string, link: string): AuthEmail {
  return mail(to, 'Your Storewise sign-in link',
    'Follow this link to sign in to Storewise. If a business invited you, it opens the invitation.',
    'Sign in to Storewise', link, 'If you did not ask for this, you can ignore this email.');
}

export function emailChangeEmail(to: string, link: string, newEmail: string): AuthEmail {
  return mail(to, 'Confirm your new Storewise email address',
    `Follow this link to confirm the change of your Storewise sign-in address to ${newEmail}:`,
    'Confirm the change', link, 'If you did not ask for this, do not follow the link and change your password.');
}

export function reauthenticationEmail(to: string, code: string): AuthEmail {
  const title = 'Your Storewise confirmation code';
  const intro = `Enter this code to confirm it is you: ${code}`;
  const outro = 'If you did not ask for this, you can ignore this email.';
  return {
    to,
    subject: title,
    text: `${title}\n\n${intro}\n\n${outro}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111"><h2>${escapeHtml(title)}</h2>
<p>${escapeHtml(intro)}</p><p style="color:#555">${escapeHtml(outro)}</p><p style="color:#555">Storewise</p></body></html>`,
  };
}

const roleWords: Record<string, string> = { cashier: 'a cashier', manager: 'a manager' };

/**
 * The invitation: who invites, to which business and role, with the business in the subject. The link is the
 * auth service's (it signs the invitee in and opens the accept page, where they choose their name and password).
 */
export function invitationEmail(to: string, link: string, facts: InvitationFacts): AuthEmail {
  const who = facts.inviter_name ?? `The owner of ${facts.business_name}`;
  const role = roleWords[facts.role] ?? `a ${facts.role}`;
  const expires = new Date(facts.expires_at).toISOString().slice(0, 10);
  const subject = `${who} invites you to join ${facts.business_name} on Storewise`;
  const intro = `${who} invites you to join ${facts.business_name} on Storewise as ${role}. ` +
    'Follow this link to accept; you will choose your name and a password.';
  const outro = `The invitation can be used once, until ${expires}. If you do not know ${facts.business_name}, you can ignore this email.`;
  return mail(to, subject, intro, `Join ${facts.business_name}`, link, outro);
}

const acceptPath = '/dashboard/business/invitations/accept';

/** The invitation token an auth email's redirect carries, when it leads to the accept page; else null. */
export function invitationTokenOf(redirectTo: string | null | undefined): string | null {
  if (!redirectTo) return null;
  let url: URL;
  try {
    url = new URL(redirectTo);
  } catch {
    return null;
  }
  if (!url.pathname.endsWith(acceptPath)) return null;
  const token = url.searchParams.get('token') ?? '';
  return /^[0-9a-f]{64}$/.test(token) ? token : null;
}
