import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SerialQueue', () => {
  it('never runs two tasks at once and keeps FIFO order', async () => {
    const queue = new SerialQueue();
    let running = 0;
    let maxRunning = 0;
    const order: number[] = [];
    await Promise.all(
      [30, 5, 20, 1].map((delay, index) =>
        queue.run(async () => {
          running += 1;
          maxRunning = Math.max(maxRunning, running);
          await sleep(delay);
          order.push(index);
          running -= 1;
        }),
      ),
    );
    expect(maxRunning).toBe(1);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('keeps going after a failed task and reports the failure to its caller', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(async () => {
      throw new Error('boom');
    });
    const next = queue.run(async () => 42);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
  });
});
