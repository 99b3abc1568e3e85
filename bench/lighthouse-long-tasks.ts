/**
 * Where a public page's main-thread time goes (issue 16, docs/adr/0160): one Lighthouse run (mobile defaults)
 * of each URL given, then every top-level task of its trace that took more than 10 ms of CPU, with its largest
 * pieces (script evaluation by file, function calls, style recalculation, layout, parsing). Lantern counts
 * each observed task four times over (4x CPU), so a task of 12.5 ms observed is 50 ms simulated, the point
 * where total blocking time starts. Not a bench (no targets): a tool to find the task to split next.
 *
 * `npx tsx bench/lighthouse-long-tasks.ts -- http://127.0.0.1:PORT/ http://127.0.0.1:PORT/auth`
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { longTasks, short, type TraceEvent } from './lib/long-tasks';
import { freePort } from './lib/serve-site';

const CHROMIUM = process.env.STOREWISE_CHROMIUM ?? '/usr/bin/chromium';

async function main() {
  const urls = process.argv.slice(2).filter((arg) => arg.startsWith('http'));
  if (urls.length === 0) throw new Error('usage: lighthouse-long-tasks.ts URL...');
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'storewise-long-tasks-'));
  const chromium = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' });
  try {
    for (let waited = 0; ; waited += 1) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
      } catch {
        if (waited > 120) throw new Error('Chromium did not start');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    for (const url of urls) {
      const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
      if (!result) throw new Error(`no result for ${url}`);
      const { lhr, artifacts } = result;
      const events = (artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace.traceEvents;
      // STOREWISE_TRACE_DIR keeps each trace (open it in Chromium's Performance panel).
      if (process.env.STOREWISE_TRACE_DIR) writeFileSync(join(process.env.STOREWISE_TRACE_DIR, `${new URL(url).port}${new URL(url).pathname.replace(/\//g, '_')}.json`), JSON.stringify({ traceEvents: events }));
      const tbt = Math.round(lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN);
      const lcp = Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN);
      console.log(`\n${url}: performance ${Math.round((lhr.categories.performance?.score ?? 0) * 100)}, LCP ${lcp} ms, TBT ${tbt} ms, benchmarkIndex ${lhr.environment.benchmarkIndex}`);
      const { tasks, blockingFromCpu } = longTasks(events);
      console.log(`  blocking time from CPU time (tasks after FCP, sum of 4 x CPU - 50 ms): ${blockingFromCpu} ms`);
      for (const task of tasks) {
        console.log(`  task at ${task.at} ms: ${task.ms} ms observed, ${task.cpuMs} ms CPU (${Math.round(task.cpuMs * 4)} ms at 4x)`);
        for (const [name, ms] of task.parts) console.log(`      ${ms.toFixed(1)} ms  ${name}`);
      }
      const simulated = ((lhr.audits['long-tasks']?.details as { items?: { url: string; duration: number; startTime: number }[] } | undefined)?.items ?? []).map(
        (item) => `${short(item.url)} ${Math.round(item.duration)} ms @${Math.round(item.startTime)}`,
      );
      console.log(`  Lighthouse long-tasks (simulated): ${simulated.join('; ')}`);
    }
  } finally {
    chromium.kill('SIGTERM');
    setTimeout(() => rmSync(profile, { recursive: true, force: true }), 500);
  }
}

await main();
