import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HydrateApart, Prerendering, StaticHtml } from './prerendered-parts';

// docs/adr/0091: a StaticHtml part keeps the server's HTML on hydration and never renders its children in the
// browser; a HydrateApart part hydrates (its handlers work) without replacing the server's nodes.

let root: Root | undefined;
let mounted: HTMLElement | undefined;
// Only this file's own container goes: other files' portals (the toaster) may share this document (docs/adr/0380).
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  mounted?.remove();
  mounted = undefined;
});

function Counted({ onRender }: { onRender: () => void }) {
  onRender();
  return <h2 id="static-heading">Everything a modern retailer needs</h2>;
}

function Page({ onRender, onClick }: { onRender: () => void; onClick: () => void }) {
  return (
    <main>
      <StaticHtml>
        <Counted onRender={onRender} />
        <a href="/privacy-policy">Privacy Policy</a>
      </StaticHtml>
      <HydrateApart>
        <button type="button" onClick={onClick}>
          Open menu
        </button>
      </HydrateApart>
    </main>
  );
}

describe('prerendered parts', () => {
  it('the server renders the static part; hydration adopts it without rendering it again', async () => {
    const serverRenders = vi.fn();
    const html = renderToString(
      <Prerendering.Provider value>
        <Page onRender={serverRenders} onClick={() => undefined} />
      </Prerendering.Provider>,
    );
    expect(serverRenders).toHaveBeenCalledTimes(1);
    expect(html).toContain('Everything a modern retailer needs');
    expect(html).toContain('href="/privacy-policy"');

    const container = (mounted = document.createElement('div'));
    container.innerHTML = html;
    document.body.append(container);
    const heading = container.querySelector('#static-heading');
    const clientRenders = vi.fn();
    const onClick = vi.fn();
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, <Page onRender={clientRenders} onClick={onClick} />, { onRecoverableError: recoverable });
    });

    expect(recoverable).not.toHaveBeenCalled();
    expect(clientRenders).not.toHaveBeenCalled();
    // The very node from the server's HTML, children and all.
    expect(container.querySelector('#static-heading')).toBe(heading);
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/privacy-policy');
    // The hydrated part works.
    await act(async () => container.querySelector('button')?.click());
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('a static part rendered in the browser (no server HTML) renders its children', async () => {
    const { createRoot } = await import('react-dom/client');
    const container = (mounted = document.createElement('div'));
    document.body.append(container);
    const renders = vi.fn();
    await act(async () => {
      root = createRoot(container);
      root.render(<Page onRender={renders} onClick={() => undefined} />);
    });
    expect(renders).toHaveBeenCalled();
    expect(container.querySelector('#static-heading')?.textContent).toBe('Everything a modern retailer needs');
  });
});
