import { createContext, Suspense, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';

// The two ways a part of a prerendered public page is hydrated (docs/adr/0090, 0091).

const subscribe = () => () => undefined;

/** True in the build-time prerender (web/entry-server.tsx), the one place StaticHtml renders its children for. */
export const Prerendering = createContext(false);

/**
 * A part of a prerendered screen that React hydrates in a pass of its own (docs/adr/0091). React leaves each
 * Suspense boundary of server HTML dehydrated in the first pass and hydrates it later at idle priority, in
 * slices that yield to the browser, so a long page no longer hydrates in one long task; a click on a part not
 * yet hydrated hydrates that part first and is then replayed. Renders nothing of its own.
 */
export function HydrateApart({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

const keepServerHtml = { __html: '' };
const contents = { display: 'contents' } as const;

/**
 * A part of a prerendered screen with nothing to hydrate (text, headings, plain links): the browser keeps the
 * server's HTML and React never renders it (docs/adr/0091). Hydrating it would only recompute its Chakra
 * styles, the bulk of the main-thread work after the first paint. React adopts an element that has
 * `dangerouslySetInnerHTML` without looking at its children, and the unchanged `__html` keeps later renders
 * off them too. Where the screen is rendered in the browser (client-side navigation, the desktop) the children
 * render as usual. Inside, event handlers never run on the prerendered page: links there are plain `<a href>`.
 * The wrapper is `display: contents`, so grids and subgrids lay out its children as their own.
 */
export function StaticHtml({ children }: { children: ReactNode }) {
  // The server snapshot (true) is what the prerender and the hydrating render see. Kept for the component's
  // life, so the re-render that follows hydration does not replace the server's HTML.
  const hydrating = useSyncExternalStore(subscribe, () => false, () => true);
  const prerendering = useContext(Prerendering);
  const [keep] = useState(hydrating && !prerendering);
  if (keep) return <div style={contents} suppressHydrationWarning dangerouslySetInnerHTML={keepServerHtml} />;
  return <div style={contents}>{children}</div>;
}
