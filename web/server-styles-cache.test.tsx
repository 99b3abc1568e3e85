import { CacheProvider, ClassNames, css } from '@emotion/react';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_STYLES_ATTRIBUTE, serverStylesCache } from './server-styles-cache';

// A prerendered page's component styles tag (scripts/prerender.ts renames emotion's attribute, docs/adr/0160).
const fromServer = css({ color: 'rgb(1, 2, 3)' });
const notFromServer = css({ color: 'rgb(4, 5, 6)' });

// Other files may share this document and its global styles (docs/adr/0380): only what this file added goes.
let before = new Set<Node>();
beforeEach(() => {
  before = new Set(document.head.childNodes);
});
afterEach(() => {
  for (const node of [...document.head.childNodes]) if (!before.has(node)) node.remove();
});

const stylesAdded = () => [...document.head.querySelectorAll('style')].filter((tag) => !before.has(tag));

function serverTag() {
  const tag = document.createElement('style');
  tag.setAttribute(SERVER_STYLES_ATTRIBUTE, `css ${fromServer.name}`);
  tag.textContent = `.css-${fromServer.name}{color:rgb(1, 2, 3);}`;
  document.head.prepend(tag);
  return tag;
}

function Styled({ style, label }: { style: typeof fromServer; label: string }) {
  return <ClassNames>{({ css: toClass }) => <p className={toClass(style)}>{label}</p>}</ClassNames>;
}

describe('serverStylesCache', () => {
  it('knows the server styles by name without moving their tag, and inserts only new styles', () => {
    const tag = serverTag();
    const moves: Node[] = [];
    const observer = new MutationObserver((records) => records.forEach((record) => moves.push(...record.removedNodes)));
    observer.observe(document.head, { childList: true });

    const cache = serverStylesCache();
    expect(cache.inserted[fromServer.name]).toBe(true);
    render(
      <CacheProvider value={cache}>
        <Styled style={fromServer} label="server" />
      </CacheProvider>,
    );
    expect(screen.getByText('server').className).toBe(`css-${fromServer.name}`);
    // Nothing inserted for a style the server wrote, and its tag never left its place.
    expect(stylesAdded()).toHaveLength(1);
    expect(document.head.firstElementChild).toBe(tag);

    render(
      <CacheProvider value={cache}>
        <Styled style={notFromServer} label="client" />
      </CacheProvider>,
    );
    expect(stylesAdded()).toHaveLength(2);
    expect(document.head.firstElementChild).toBe(tag);
    observer.disconnect();
    expect(moves.concat(observer.takeRecords().flatMap((record) => [...record.removedNodes]))).toEqual([]);
  });

  it('leaves the renamed tag out of emotion\'s own adoption (which re-inserts every tag it adopts)', () => {
    serverTag();
    const cache = serverStylesCache();
    expect(cache.sheet.tags).toHaveLength(0);
  });
});
