import { differenceInDays, differenceInHours, differenceInMinutes, isValid, parseISO } from 'date-fns';

/**
 * The relative-time rules of spec section 9, as pure functions so they can be tested without a clock.
 * Both round down ("1 hour ago" until the second hour is complete) and treat timestamps slightly in the
 * future (clock skew between browser and server) as "now".
 */

type Moment = string | Date;

function toDate(value: Moment): Date | null {
  const date = typeof value === 'string' ? parseISO(value) : value;
  return isValid(date) ? date : null;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

/** Active sessions: under 5 minutes 'Active now', then "N minutes ago", "N hours ago", "N days ago". */
export function sessionLastActive(lastActive: Moment, now: Date = new Date()): string {
  const date = toDate(lastActive);
  if (!date) return 'Unknown';
  const minutes = differenceInMinutes(now, date);
  if (minutes < 5) return 'Active now';
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = differenceInHours(now, date);
  if (hours < 24) return plural(hours, 'hour');
  return plural(differenceInDays(now, date), 'day');
}

/** Support tickets: under 1 hour 'Less than an hour ago', then "N hours ago", "N days ago". */
export function ticketUpdated(updatedAt: Moment, now: Date = new Date()): string {
  const date = toDate(updatedAt);
  if (!date) return 'Unknown';
  const hours = differenceInHours(now, date);
  if (hours < 1) return 'Less than an hour ago';
  if (hours < 24) return plural(hours, 'hour');
  return plural(differenceInDays(now, date), 'day');
}
