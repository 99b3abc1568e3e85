import { useCallback, useEffect, useState } from 'react';
import { readSidebarCookie, sidebarCookie } from './sidebar-cookie';
import { useIsMobile } from './use-is-mobile';

export interface SidebarState {
  isMobile: boolean;
  /** Desktop: full width (true) or icons only (false); remembered in the cookie. */
  expanded: boolean;
  /** Mobile: whether the drawer is showing; not remembered (a reload starts closed). */
  mobileOpen: boolean;
  setMobileOpen: (open: boolean) => void;
  toggle: () => void;
}

/** The sidebar's state, its cookie and the Ctrl/Cmd + B shortcut. */
export function useSidebar(): SidebarState {
  const isMobile = useIsMobile();
  const [expanded, setExpanded] = useState(() => readSidebarCookie(document.cookie) ?? true);
  const [mobileOpen, setMobileOpen] = useState(false);

  const toggle = useCallback(() => {
    if (isMobile) {
      setMobileOpen((open) => !open);
      return;
    }
    document.cookie = sidebarCookie(!expanded);
    setExpanded(!expanded);
  }, [isMobile, expanded]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);

  return { isMobile, expanded, mobileOpen: isMobile && mobileOpen, setMobileOpen, toggle };
}
