import { Suspense, use, type ReactElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyScreen } from './lazy-screen';
import { loadedScreenModule, loadScreenModule, preloadScreens } from './screen-modules';
import { settledForUse, settledValue } from './settled-for-use';

function Probe({ label }: { label: string }) {
  return <p>{label}</p>;
}

/** A Suspense fallback that records each time it is rendered. */
function recordingFallback() {
  const shown: string[] = [];
  function Fallback() {
    shown.push('fallback');
    return <p>waiting</p>;
  }
  return { shown, Fallback };
}

// React retries suspended work only inside an awaited act() (React 19).
const renderAsync = async (ui: ReactElement) => {
  let view: ReturnType<typeof render> | undefined;
  await act(async () => {
    view = render(ui);
  });
  return view!;
};

describe('lazyScreen', () => {
  it('suspends while its module loads, and renders at once, without the fallback, once it is there', async () => {
    // supabase-client is the lightest of the screen modules; the screen picked from it is the probe.
    const Screen = lazyScreen('supabase', () => Probe);
    const before = recordingFallback();
    const first = await renderAsync(<Suspense fallback={<before.Fallback />}><Screen label="first" /></Suspense>);
    await act(async () => {
      await loadScreenModule('supabase');
      await new Promise((resolve) => setTimeout(resolve, 500)); // past React's throttle on revealing content
    });
    expect(await screen.findByText('first')).toBeTruthy();
    expect(before.shown.length).toBeGreaterThan(0);
    first.unmount();

    const after = recordingFallback();
    const second = await renderAsync(<Suspense fallback={<after.Fallback />}><Screen label="second" /></Suspense>);
    expect(screen.getByText('second')).toBeTruthy();
    expect(after.shown).toEqual([]);
    second.unmount();
  });
});

describe('settledForUse', () => {
  function Value({ promise }: { promise: Promise<string> }) {
    return <p>{use(promise)}</p>;
  }

  it('lets a first use() of a settled promise render its value without suspending', async () => {
    const promise = settledForUse(Promise.resolve('ready'));
    await promise;
    const recorded = recordingFallback();
    const view = await renderAsync(<Suspense fallback={<recorded.Fallback />}><Value promise={promise} /></Suspense>);
    expect(screen.getByText('ready')).toBeTruthy();
    expect(recorded.shown).toEqual([]);
    view.unmount();
  });

  it('an unmarked settled promise still suspends its first use() (what the marking avoids)', async () => {
    const promise = Promise.resolve('late');
    await promise;
    const recorded = recordingFallback();
    const view = await renderAsync(<Suspense fallback={<recorded.Fallback />}><Value promise={promise} /></Suspense>);
    await act(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(await screen.findByText('late')).toBeTruthy();
    expect(recorded.shown.length).toBeGreaterThan(0);
    view.unmount();
  });
});

describe('settledValue', () => {
  function Value({ promise }: { promise: Promise<string> }) {
    return <p>{use(promise)}</p>;
  }

  it('renders a value in hand in the very first render, without a turn of the event loop or the fallback', async () => {
    const recorded = recordingFallback();
    const view = await renderAsync(<Suspense fallback={<recorded.Fallback />}><Value promise={settledValue('in hand')} /></Suspense>);
    expect(screen.getByText('in hand')).toBeTruthy();
    expect(recorded.shown).toEqual([]);
    expect(await settledValue(7)).toBe(7);
    view.unmount();
  });
});

describe('preloadScreens', () => {
  it('settles once the modules of a deep link are loaded, so the first render finds them', async () => {
    await preloadScreens('/admin');
    expect(loadedScreenModule('supabase')).toBeDefined();
    expect(loadedScreenModule('admin')).toBeDefined();
  }, 60_000); // the admin panel's real modules, transformed on first import: seconds on a loaded machine

  it('settles at once for a public page, which has no screen modules', async () => {
    await expect(preloadScreens('/privacy-policy')).resolves.toBeUndefined();
  });
});
