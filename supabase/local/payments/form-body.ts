/**
 * Stripe's request encoding: application/x-www-form-urlencoded with bracketed keys (`items[0][price]=p`,
 * `expand[]=x`, `metadata[plan]=Pro`), the way the official client's query-string encoder writes them.
 * Arrays come back as arrays when every key at a level is a number or `[]`.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

function setPath(target: Record<string, FormValue>, path: string[], value: string): void {
  let node: Record<string, FormValue> = target;
  for (let i = 0; i < path.length - 1; i += 1) {
    const key = path[i] as string;
    const nextKey = path[i + 1] as string;
    const existing = node[key];
    if (existing === undefined || typeof existing === 'string') {
      node[key] = {};
    }
    const child = node[key] as Record<string, FormValue>;
    if (nextKey === '') path[i + 1] = String(Object.keys(child).length);
    node = child;
  }
  node[path[path.length - 1] as string] = value;
}

function arraysOf(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((key) => [key, arraysOf(value[key] as FormValue)]));
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key] as FormValue);
  }
  return converted;
}

export function parseForm(body: string): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const head = /^[^[]+/.exec(rawKey)?.[0] ?? rawKey;
    const rest = [...rawKey.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '');
    setPath(out, [head, ...rest], value);
  }
  return arraysOf(out) as Record<string, FormValue>;
}

/** Reads a nested string (`get(body, 'metadata', 'plan')`), or undefined. */
export function str(value: FormValue | undefined, ...path: (string | number)[]): string | undefined {
  let node: FormValue | undefined = value;
  for (const key of path) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = Array.isArray(node) ? node[Number(key)] : node[String(key)];
  }
  return typeof node === 'string' ? node : undefined;
}
