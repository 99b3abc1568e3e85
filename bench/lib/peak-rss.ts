import { readFileSync, writeFileSync } from 'node:fs';

const MB = 1024 * 1024;

/**
 * Peak RSS of this process between start() and stop(), above its level at start(). On Linux the kernel keeps the
 * peak itself (VmHWM in /proc/self/status, reset by writing 5 to /proc/self/clear_refs): exact, and free while the
 * transfer runs. Elsewhere it samples process.memoryUsage.rss() every 5 ms, as the storage bench did until ADR 0442
 * (a sampler that cost the measured process up to half a second of CPU per bench run, billed to the transfers).
 */
export function peakRss(): { start(): void; stop(): number } {
  let base = 0;
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  let kernel = false;
  return {
    start() {
      global.gc?.();
      base = peak = process.memoryUsage.rss();
      try {
        writeFileSync('/proc/self/clear_refs', '5');
        kernel = true;
      } catch {
        kernel = false;
        timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
      }
    },
    stop() {
      clearInterval(timer);
      if (kernel) {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
        if (kb) peak = Math.max(peak, Number(kb) * 1024);
      }
      peak = Math.max(peak, process.memoryUsage.rss());
      return (peak - base) / MB;
    },
  };
}
