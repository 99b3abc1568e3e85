import { describe, expect, it } from 'vitest';
import { sessionLastActive, ticketUpdated } from './relative-time';

const now = new Date('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('sessionLastActive', () => {
  it.each([
    [0, 'Active now'],
    [4 * MINUTE + 59 * SECOND, 'Active now'],
    [5 * MINUTE, '5 minutes ago'],
    [59 * MINUTE + 59 * SECOND, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [2 * HOUR - SECOND, '1 hour ago'],
    [2 * HOUR, '2 hours ago'],
    [23 * HOUR + 59 * MINUTE, '23 hours ago'],
    [DAY, '1 day ago'],
    [2 * DAY, '2 days ago'],
    [45 * DAY, '45 days ago'],
  ])('%i ms ago reads %s', (ms, expected) => {
    expect(sessionLastActive(ago(ms), now)).toBe(expected);
  });

  it('reads ISO strings as the database returns them', () => {
    expect(sessionLastActive('2026-03-10T11:50:00+00:00', now)).toBe('10 minutes ago');
  });

  it('treats a timestamp slightly in the future (clock skew) as now', () => {
    expect(sessionLastActive(new Date(now.getTime() + 30 * SECOND), now)).toBe('Active now');
  });

  it('says Unknown for an unreadable timestamp', () => {
    expect(sessionLastActive('not a date', now)).toBe('Unknown');
  });
});

describe('ticketUpdated', () => {
  it.each([
    [0, 'Less than an hour ago'],
    [59 * MINUTE, 'Less than an hour ago'],
    [HOUR, '1 hour ago'],
    [5 * HOUR, '5 hours ago'],
    [DAY - SECOND, '23 hours ago'],
    [DAY, '1 day ago'],
    [3 * DAY + 5 * HOUR, '3 days ago'],
  ])('%i ms ago reads %s', (ms, expected) => {
    expect(ticketUpdated(ago(ms), now)).toBe(expected);
  });

  it('says Unknown for an unreadable timestamp', () => {
    expect(ticketUpdated('', now)).toBe('Unknown');
  });
});
