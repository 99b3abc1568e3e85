/** The sidebar's open state survives reloads in a cookie for 7 days (spec section 9). */
export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;

/** true/false from a document.cookie string, or null when the cookie is absent or unreadable. */
export function readSidebarCookie(cookies: string): boolean | null {
  for (const part of cookies.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === SIDEBAR_COOKIE) {
      if (value === 'true') return true;
      if (value === 'false') return false;
      return null;
    }
  }
  return null;
}

/** The Set-Cookie text for document.cookie. */
export function sidebarCookie(open: boolean): string {
  return `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`;
}
