/**
 * The spec's avatar rule: initials of the full name (first and last word), else the first two letters of
 * the email, else 'U'.
 */
export function avatarInitials(fullName: string | null | undefined, email: string | null | undefined): string {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  if (first) return (Array.from(first)[0]! + (last ? Array.from(last)[0]! : '')).toUpperCase();
  const mail = (email ?? '').trim();
  if (mail) return Array.from(mail).slice(0, 2).join('').toUpperCase();
  return 'U';
}

/** The name shown in the menu: the full name, else 'User'. */
export function displayName(fullName: string | null | undefined): string {
  return fullName?.trim() || 'User';
}
