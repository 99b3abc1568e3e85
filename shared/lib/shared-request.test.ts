import { describe, expect, it } from 'vitest';
import { sharedRequest } from './shared-request';

/** A request that counts its calls and settles when told to. */
function controlled<T>() {
  let calls = 0;
  let settle: { resolve: (value: T) => void; reject: (reason: unknown) => void } | undefined;
  const request = () => {
    calls += 1;
    return new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  };
  return { request, calls: () => calls, settle: () => settle! };
}

describe('sharedRequest', () => {
  it('gives callers that ask while a request is under way its one answer', async () => {
    const client = {};
    const probe = controlled<string>();
    const first = sharedRequest(client, 'logo:b1', probe.request);
    const second = sharedRequest(client, 'logo:b1', probe.request);
    probe.settle().resolve('url');
    expect(await Promise.all([first, second])).toEqual(['url', 'url']);
    expect(probe.calls()).toBe(1);
  });

  it('asks again once the request has settled, after a failure too', async () => {
    const client = {};
    const probe = controlled<string>();
    const failed = sharedRequest(client, 'k', probe.request);
    probe.settle().reject(new Error('offline'));
    await expect(failed).rejects.toThrow('offline');
    const again = sharedRequest(client, 'k', probe.request);
    probe.settle().resolve('back');
    expect(await again).toBe('back');
    expect(probe.calls()).toBe(2);
  });

  it('keeps other keys and other clients apart', async () => {
    const [alice, bob] = [{}, {}];
    const probe = controlled<string>();
    void sharedRequest(alice, 'k', probe.request);
    void sharedRequest(alice, 'other', probe.request);
    void sharedRequest(bob, 'k', probe.request);
    expect(probe.calls()).toBe(3);
  });
});
