import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows the limit per window and key, then refuses until the window passes', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    expect([1, 2, 3].map(() => limiter.hit('token:1.2.3.4', 2, 300))).toEqual([true, true, false]);
    expect(limiter.hit('token:5.6.7.8', 2, 300)).toBe(true);
    now = 300_000;
    expect(limiter.hit('token:1.2.3.4', 2, 300)).toBe(true);
  });
});
