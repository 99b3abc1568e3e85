/** The Prefer header as postgrest-js sends it (several values, comma-joined or repeated). */

export interface Preferences {
  return?: 'representation' | 'minimal' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  tx?: 'commit' | 'rollback';
  /** Values we understood, echoed in Preference-Applied as PostgREST does. */
  applied: string[];
}

const KNOWN: Record<string, readonly string[]> = {
  return: ['representation', 'minimal', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  tx: ['commit', 'rollback'],
};

/** Unknown preferences are ignored (PostgREST's lenient handling), never an error. */
export function parsePrefer(header: string | null): Preferences {
  const prefs: Preferences = { applied: [] };
  for (const part of (header ?? '').split(',')) {
    const [key = '', value = ''] = part.trim().split('=', 2).map((s) => s.trim());
    if (KNOWN[key]?.includes(value)) {
      Object.assign(prefs, { [key]: value });
      prefs.applied.push(`${key}=${value}`);
    }
  }
  return prefs;
}
