/**
 * Long tasks in a Lighthouse trace (docs/adr/0160), shared by bench/lighthouse-long-tasks.ts and
 * bench/lighthouse.bench.ts: the page's main thread, its top-level tasks over LONG_MS of CPU with their largest
 * pieces, and a load-independent stand-in for total blocking time. Lantern simulates 4x CPU from the observed
 * (wall-clock) task durations, which a machine shared by several sessions inflates while the renderer waits
 * for a core; a task's thread (CPU) time is not inflated, so 4 x CPU - 50 ms, summed over the tasks after the
 * first contentful paint, follows the page's own work.
 */
const LONG_MS = 10;

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: unlike dur, not inflated while the thread waits for a core on a loaded machine. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; functionName?: string; type?: string; stackTrace?: { url: string; functionName: string }[] } };
}

export const short = (url: string | undefined) => (url ? url.replace(/^https?:\/\/[^/]+/, '') || '/' : '');

/** A readable name for one event inside a task. */
function label(event: TraceEvent): string {
  const data = event.args?.data;
  if (event.name === 'EvaluateScript' || event.name === 'v8.compileModule' || event.name === 'v8.evaluateModule') return `${event.name} ${short(data?.url)}`;
  if (event.name === 'FunctionCall') return `FunctionCall ${data?.functionName || '(anonymous)'} ${short(data?.url)}`;
  if (event.name === 'TimerFire' || event.name === 'FireAnimationFrame' || event.name === 'EventDispatch') return `${event.name} ${data?.type ?? ''}`;
  return event.name;
}

export function longTasks(events: TraceEvent[]) {
  const navigation = events.find((event) => event.name === 'navigationStart' && event.args?.data && 'documentLoaderURL' in event.args.data);
  // The renderer's main thread (CrRendererMain), else the thread with the most top-level task time.
  const allTasks = events.filter((event) => event.name === 'RunTask' && event.ph === 'X' && (event.dur ?? 0) > 0);
  const byThread = new Map<string, number>();
  for (const task of allTasks) byThread.set(`${task.pid}:${task.tid}`, (byThread.get(`${task.pid}:${task.tid}`) ?? 0) + (task.dur ?? 0));
  const rendererMains = new Set(
    events.filter((event) => event.name === 'thread_name' && (event.args as { name?: string } | undefined)?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`),
  );
  const busiest = [...byThread.entries()].filter(([key]) => rendererMains.size === 0 || rendererMains.has(key)).sort((a, b) => b[1] - a[1]);
  const mainKey = busiest[0]?.[0];
  const origin = navigation?.ts ?? allTasks[0]?.ts ?? 0;
  const onMain = events.filter((event) => `${event.pid}:${event.tid}` === mainKey && event.ph === 'X' && event.dur !== undefined);
  const long = onMain.filter((event) => event.name === 'RunTask' && (event.tdur ?? event.dur ?? 0) / 1000 >= LONG_MS);
  // Total blocking time counts the tasks after the first contentful paint.
  const firstPaint = events.find((event) => event.name === 'firstContentfulPaint' && `${event.pid}:${event.tid}` === mainKey)?.ts ?? origin;
  // A load-independent stand-in for total blocking time: each top-level task's CPU time x4, less 50 ms.
  const blockingFromCpu = onMain
    .filter((event) => event.name === 'RunTask' && event.ts >= firstPaint)
    .reduce((sum, task) => sum + Math.max(0, ((task.tdur ?? task.dur ?? 0) / 1000) * 4 - 50), 0);
  const tasks = long.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const inside = onMain.filter((event) => event !== task && event.ts >= task.ts && event.ts + (event.dur ?? 0) <= end);
    const interesting = inside.filter((event) =>
      /^(EvaluateScript|v8\.compileModule|v8\.evaluateModule|FunctionCall|UpdateLayoutTree|Layout|ParseHTML|ParseAuthorStyleSheet|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|Paint|PrePaint|Layerize|MajorGC|MinorGC|V8\.GC_SCAVENGER|BlinkGC\.AtomicPhase|v8\.compile|ScheduleStyleRecalculation|HitTest)$/.test(event.name),
    );
    const totals = new Map<string, number>();
    for (const event of interesting) totals.set(label(event), (totals.get(label(event)) ?? 0) + (event.dur ?? 0) / 1000);
    const parts = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
    return { at: Math.round((task.ts - origin) / 1000), ms: +((task.dur ?? 0) / 1000).toFixed(1), cpuMs: +((task.tdur ?? 0) / 1000).toFixed(1), parts };
  });
  return { tasks, blockingFromCpu: Math.round(blockingFromCpu) };
}

