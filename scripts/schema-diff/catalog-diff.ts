/**
 * The difference between two catalog snapshots as text a person can act on: per kind, the lines only one
 * side has; for a function whose body differs, the first line where the two bodies part. Empty when equal.
 */
import type { Snapshot } from './catalog-snapshot';

export interface Side {
  label: string;
  snapshot: Snapshot;
  bodies?: Map<string, string>;
}

const shown = 40;

function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    if (left[i] !== right[i]) return `line ${i + 1}: ${JSON.stringify(left[i] ?? '(end)')} vs ${JSON.stringify(right[i] ?? '(end)')}`;
  }
  return 'same lines (whitespace at the end?)';
}

export function diffSnapshots(a: Side, b: Side): string {
  const out: string[] = [];
  const kinds = [...new Set([...Object.keys(a.snapshot), ...Object.keys(b.snapshot)])].sort();
  for (const kind of kinds) {
    const left = new Set(a.snapshot[kind] ?? []);
    const right = new Set(b.snapshot[kind] ?? []);
    const onlyLeft = [...left].filter((line) => !right.has(line));
    const onlyRight = [...right].filter((line) => !left.has(line));
    if (!onlyLeft.length && !onlyRight.length) continue;
    out.push(`${kind}:`);
    for (const [label, lines] of [[a.label, onlyLeft], [b.label, onlyRight]] as const) {
      for (const line of lines.slice(0, shown)) out.push(`  only in ${label}: ${line}`);
      if (lines.length > shown) out.push(`  ... and ${lines.length - shown} more only in ${label}`);
    }
  }
  for (const [name, body] of a.bodies ?? []) {
    const other = b.bodies?.get(name);
    if (other !== undefined && other !== body) out.push(`body of ${name} differs at ${firstDifference(body, other)}`);
  }
  return out.join('\n');
}
