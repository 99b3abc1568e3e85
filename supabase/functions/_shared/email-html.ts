/*
 * The HTML of the platform's own emails: escaping and the common page (a title, paragraphs, one link, the
 * Storewise footer). No imports, so the local stack (Node) and the send-email function (Deno) load it alike.
 */

/** Text as HTML content or attribute value: the five characters that could end an element or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export interface EmailPage {
  title: string;
  paragraphs: readonly string[];
  link?: { href: string; label: string };
}

/** The page of a plain platform email; every value is escaped here. */
export function emailLayout(page: EmailPage): string {
  const paragraphs = page.paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  const link = page.link ? `<p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.label)}</a></p>` : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111"><h2>${escapeHtml(page.title)}</h2>
${paragraphs}${link}
<p style="color:#555">Storewise</p></body></html>`;
}
