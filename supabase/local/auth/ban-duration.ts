import { errors } from './auth-error';

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const SEGMENT = /(\d*(?:\.\d*)?)(ns|us|µs|μs|ms|s|m|h)/y;
const MAX_NS = 2 ** 63 - 1;

/** Go's time.ParseDuration ("24h", "1h30m", "-90s", "0"), which GoTrue applies to ban_duration; undefined when invalid. */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < rest.length) {
    const match = SEGMENT.exec(rest);
    if (!match) return undefined;
    const [, number = '', unit = ''] = match;
    if (number === '' || number === '.') return undefined;
    total += Number(number) * (UNIT_NS[unit] ?? Number.NaN);
  }
  if (!Number.isFinite(total) || total > MAX_NS) return undefined;
  return (sign * total) / 1e6;
}

/**
 * The admin API's ban_duration: "none" lifts a ban, a Go duration bans for that long from now (0 lifts
 * it too, as in GoTrue). Returns the ban's length in milliseconds, or null for no ban.
 */
export function banMilliseconds(banDuration: string): number | null {
  if (banDuration === 'none') return null;
  const ms = parseGoDuration(banDuration);
  if (ms === undefined) {
    throw errors.validation(`invalid format for ban duration: time: invalid duration ${JSON.stringify(banDuration)}`);
  }
  return ms === 0 ? null : ms;
}
