import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** A new page starts at its top, as a full page load would; in-page anchors (#pricing) scroll themselves. */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    // The page's own scroll to its anchor runs first (child effects before this one): do not undo it.
    if (hash) return;
    window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
