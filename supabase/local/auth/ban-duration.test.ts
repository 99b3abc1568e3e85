import { describe, expect, it } from 'vitest';
import { banMilliseconds, parseGoDuration } from './ban-duration';

describe("ban_duration, parsed like Go's time.ParseDuration", () => {
  it('reads the durations GoTrue accepts', () => {
    expect(parseGoDuration('24h')).toBe(86_400_000);
    expect(parseGoDuration('1h30m')).toBe(5_400_000);
    expect(parseGoDuration('1.5s')).toBe(1500);
    expect(parseGoDuration('-90s')).toBe(-90_000);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('100ms')).toBe(100);
  });

  it('refuses what Go refuses', () => {
    for (const bad of ['', 'abc', '24', '1 h', 'h', '.h', '1d', '10 years', '1h;drop', "1' hour", '99999999999999h', '1h\u0000']) {
      expect(parseGoDuration(bad), bad).toBeUndefined();
    }
  });

  it('lifts the ban on none and 0, and answers 400 validation_failed for garbage', () => {
    expect(banMilliseconds('none')).toBeNull();
    expect(banMilliseconds('0')).toBeNull();
    expect(banMilliseconds('2h')).toBe(7_200_000);
    expect(() => banMilliseconds('forever')).toThrow(expect.objectContaining({ status: 400, code: 'validation_failed' }));
  });
});
