import type { OutgoingMail } from './mailbox';

/*
 * The emails carry the link only. GoTrue's templates can also show the 6-digit code ({{ .Token }}), but
 * no Storewise screen accepts a code, so printing it would send people looking for a field that does
 * not exist. (The auth service still verifies email + code through POST /verify, as supabase-js's
 * verifyOtp sends it, should a screen for it be added.)
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
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

export function confirmationEmail(to: string, link: string): OutgoingMail {
  const intro = 'Welcome to Storewise! Follow this link to confirm your email address:';
  const outro = 'If you did not create a Storewise account, you can ignore this email.';
  return {
    to,
    subject: 'Confirm your Storewise account',
    text: `Confirm your Storewise account\n\n${intro}\n${link}\n\n${outro}\n`,
    html: layout('Confirm your Storewise account', intro, 'Confirm your email', link, outro),
  };
}

export function recoveryEmail(to: string, link: string): OutgoingMail {
  const intro = 'Someone asked to reset the password of your Storewise account. Follow this link to choose a new one:';
  const outro = 'If you did not ask for this, you can ignore this email: your password stays the same.';
  return {
    to,
    subject: 'Reset your Storewise password',
    text: `Reset your Storewise password\n\n${intro}\n${link}\n\n${outro}\n`,
    html: layout('Reset your Storewise password', intro, 'Reset your password', link, outro),
  };
}
