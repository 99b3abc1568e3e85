/**
 * The signed-in areas' screen modules, one loader each. routes.tsx renders them through lazyScreen; the entry
 * (web/start.tsx, renderer/main.tsx) calls preloadScreens for the address being opened, so the chunks a deep
 * link needs are fetched and evaluated at once, side by side with React and Chakra, instead of one after the
 * other as each lazy screen is first rendered (docs/adr/0418: the Sales report's first load waited for seven
 * chunks in a row). Each module is loaded once; once there, it is known synchronously (loadedScreenModule), so a
 * preloaded screen renders without suspending.
 */
const importers = {
  supabase: () => import('../lib/supabase-client'),
  dashboard: () => import('../features/dashboard/dashboard-app'),
  workspaceFrame: () => import('../features/workspace/workspace-frame'),
  storePcHeartbeat: () => import('../features/workspace/store-pc-heartbeat'),
  workspace: () => import('../features/workspace/workspace-app'),
  catalog: () => import('../features/catalog/catalog-app'),
  inventory: () => import('../features/inventory/inventory-app'),
  pos: () => import('../features/pos/pos-app'),
  reports: () => import('../features/reports/reports-app'),
  businessOverview: () => import('../features/reports/business-overview'),
  admin: () => import('../features/admin/admin-app'),
};

export type ScreenModule = keyof typeof importers;
export type LoadedScreenModule<N extends ScreenModule> = Awaited<ReturnType<(typeof importers)[N]>>;

const loading = new Map<ScreenModule, Promise<unknown>>();
const loaded = new Map<ScreenModule, unknown>();

/** The module, loading it on the first call; later calls share that load (and its failure, as React.lazy does). */
export function loadScreenModule<N extends ScreenModule>(name: N): Promise<LoadedScreenModule<N>> {
  let promise = loading.get(name);
  if (!promise) {
    promise = importers[name]().then((module) => {
      loaded.set(name, module);
      return module;
    });
    loading.set(name, promise);
  }
  return promise as Promise<LoadedScreenModule<N>>;
}

/** The module if it has finished loading, else undefined. */
export const loadedScreenModule = <N extends ScreenModule>(name: N): LoadedScreenModule<N> | undefined =>
  loaded.get(name) as LoadedScreenModule<N> | undefined;

/** The dashboard's sections (routes.tsx passes them to DashboardApp) and the module each one renders. */
const dashboardSections: [RegExp, ScreenModule][] = [
  [/^\/dashboard\/?$/, 'businessOverview'],
  [/^\/dashboard\/business(\/|$)/, 'workspace'],
  [/^\/dashboard\/catalog(\/|$)/, 'catalog'],
  [/^\/dashboard\/inventory(\/|$)/, 'inventory'],
  [/^\/dashboard\/pos(\/|$)/, 'pos'],
  [/^\/dashboard\/reports(\/|$)/, 'reports'],
];

/** The modules the screen at `pathname` renders first: none for the public pages (prerendered, or light). */
export function screenModulesFor(pathname: string): ScreenModule[] {
  if (/^\/admin(\/|$)/.test(pathname)) return ['supabase', 'admin'];
  if (!/^\/dashboard(\/|$)/.test(pathname)) return [];
  // Every dashboard screen sits in the workspace frame, with the store PC heartbeat in its header.
  const section = dashboardSections.find(([pattern]) => pattern.test(pathname))?.[1];
  return ['supabase', 'dashboard', 'workspaceFrame', 'storePcHeartbeat', ...(section ? [section] : [])];
}

/**
 * Starts loading the modules of the screen at `pathname`. The promise settles when each has loaded or failed (a
 * failure shows when the screen itself needs it). The entries render after it: a screen rendered before its
 * module is there suspends, and React then holds the page back for its ~300 ms reveal throttle (docs/adr/0436).
 */
export function preloadScreens(pathname: string): Promise<void> {
  return Promise.all(screenModulesFor(pathname).map((name) => loadScreenModule(name).catch(() => undefined))).then(() => undefined);
}
