import { describe, expect, it } from 'vitest';
import { readSidebarCookie, sidebarCookie } from './sidebar-cookie';

describe('sidebar cookie', () => {
  it('reads the state among other cookies', () => {
    expect(readSidebarCookie('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(readSidebarCookie('sidebar_state=true')).toBe(true);
  });

  it('is null when absent or garbled', () => {
    expect(readSidebarCookie('')).toBeNull();
    expect(readSidebarCookie('my_sidebar_state=true')).toBeNull();
    expect(readSidebarCookie('sidebar_state=maybe')).toBeNull();
  });

  it('writes a 7-day cookie for the whole site', () => {
    expect(sidebarCookie(true)).toBe('sidebar_state=true; path=/; max-age=604800; SameSite=Lax');
    expect(readSidebarCookie(sidebarCookie(false).split(';')[0]!)).toBe(false);
  });
});
