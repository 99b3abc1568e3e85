/**
 * The embedded stack in a process of its own, for the storage bench (docs/adr/0442): the real stack runs as its own
 * process (`npm start`), so the service's CPU time and peak RSS are measured here, apart from the bench's client.
 * The parent talks to it over the IPC channel of `fork`:
 *   -> { type: 'ready', apiUrl, serviceRoleKey }            once the stack listens
 *   <- { type: 'usage' }       -> { type: 'usage', cpuMs }   CPU of every thread of this process so far
 *   <- { type: 'peak-start' }  -> { type: 'peak-started' }   collects garbage, then tracks peak RSS (peak-rss.ts)
 *   <- { type: 'peak-stop' }   -> { type: 'peak', mb }       peak RSS above the level at peak-start
 *   <- { type: 'stop' }                                     stops the stack and exits
 * argv[2] is the storage folder.
 */
import { startLocalStack } from '../../supabase/local/server';
import { peakRss } from './peak-rss';

const MB = 1024 * 1024;
const stack = await startLocalStack({ memory: true, seed: false, apiPort: 0, inboxPort: 0, paymentsPort: 0, outboxRelay: false,
  storageDir: process.argv[2]!, storageMaxFileSize: 64 * MB });

const peak = peakRss();
const send = (message: object) => process.send!(message);

process.on('message', (message: { type: string }) => {
  if (message.type === 'usage') {
    const used = process.cpuUsage();
    send({ type: 'usage', cpuMs: (used.user + used.system) / 1000 });
  } else if (message.type === 'peak-start') {
    peak.start();
    send({ type: 'peak-started' });
  } else if (message.type === 'peak-stop') {
    send({ type: 'peak', mb: peak.stop() });
  } else if (message.type === 'stop') {
    void stack.stop().finally(() => process.exit(0));
  }
});
send({ type: 'ready', apiUrl: stack.apiUrl, serviceRoleKey: stack.serviceRoleKey });
