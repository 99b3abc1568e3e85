import { createElement, use, type ComponentType } from 'react';
import { loadedScreenModule, loadScreenModule, type LoadedScreenModule, type ScreenModule } from './screen-modules';

/**
 * A screen from a module loaded on demand, like React.lazy, except that a module already loaded (preloaded by
 * the entry, docs/adr/0418) renders at once. React.lazy suspends once even then: the nearest Suspense boundary
 * shows its fallback and React holds the retry back (it throttles revealing content by ~300 ms), which put
 * the page's heading half a second behind its frame.
 */
export function lazyScreen<N extends ScreenModule, P extends object>(
  name: N,
  pick: (module: LoadedScreenModule<N>) => ComponentType<P>,
): ComponentType<P> {
  function LazyScreen(props: P) {
    const module = loadedScreenModule(name) ?? use(loadScreenModule(name));
    return createElement(pick(module), props);
  }
  LazyScreen.displayName = `LazyScreen(${name})`;
  return LazyScreen;
}
