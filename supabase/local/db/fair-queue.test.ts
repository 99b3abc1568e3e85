import { describe, expect, it } from 'vitest';
import { FairQueue, laneOf } from './fair-queue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('FairQueue', () => {
  it('never runs two tasks at once, and gives every waiting lane a turn before a lane gets its next one', async () => {
    const queue = new FairQueue();
    let running = 0;
    let maxRunning = 0;
    const order: string[] = [];
    const task = (name: string) => async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await tick();
      order.push(name);
      running -= 1;
    };
    // One account sends five at once; two others send one each afterwards.
    const all = [1, 2, 3, 4, 5].map((i) => queue.run('user:a', task(`a${i}`)));
    all.push(queue.run('user:b', task('b1')), queue.run('role:anon', task('anon1')));
    await Promise.all(all);
    expect(maxRunning).toBe(1);
    expect(order).toEqual(['a1', 'b1', 'anon1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('keeps FIFO order within a lane, goes on after a failure and reports it to its caller', async () => {
    const queue = new FairQueue();
    const order: number[] = [];
    const failed = queue.run('x', async () => {
      throw new Error('boom');
    });
    const thrown = queue.run('x', () => {
      throw new Error('sync boom');
    });
    const rest = [1, 2, 3].map((i) => queue.run('x', async () => order.push(i)));
    await expect(failed).rejects.toThrow('boom');
    await expect(thrown).rejects.toThrow('sync boom');
    await Promise.all(rest);
    expect(order).toEqual([1, 2, 3]);
    expect(queue.waitingLanes).toBe(0);
  });

  it('runs urgent tasks as soon as the running task ends, before every waiting lane, one at a time', async () => {
    const queue = new FairQueue();
    const order: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const task = (name: string) => async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      order.push(name);
      running -= 1;
    };
    const all = [queue.run('user:a', task('a1')), queue.run('user:a', task('a2')), queue.run('user:b', task('b1'))];
    all.push(queue.runFirst(task('urgent1')), queue.runFirst(task('urgent2')));
    expect(queue.waitingTasks).toBe(4);
    await Promise.all(all);
    expect(maxRunning).toBe(1);
    // a1 was already running; urgent1 goes next, then urgent tasks and lane turns alternate while both wait.
    expect(order).toEqual(['a1', 'urgent1', 'b1', 'urgent2', 'a2']);
  });

  it('lets a waiting request run after at most one urgent task, even when drains are queued back to back', async () => {
    const queue = new FairQueue();
    const order: string[] = [];
    const task = (name: string) => async () => {
      await tick();
      order.push(name);
    };
    // Like Realtime's wake loop: each drain queues the next one as soon as it resolves, before the queue moves on.
    const drains = (async () => {
      for (let i = 1; i <= 6; i += 1) await queue.runFirst(task(`drain${i}`));
    })();
    await Promise.resolve();
    const request = queue.run('user:a', task('request'));
    await Promise.all([drains, request]);
    expect(order).toHaveLength(7);
    expect(order.indexOf('request')).toBeLessThanOrEqual(1);
  });

  it('puts a request in its user\'s lane, else its role\'s', () => {
    expect(laneOf({ role: 'authenticated', claims: { sub: 'u1' } })).toBe('user:u1');
    expect(laneOf({ role: 'anon', claims: {} })).toBe('role:anon');
    expect(laneOf({ role: 'service_role', claims: { sub: '' } })).toBe('role:service_role');
  });
});
