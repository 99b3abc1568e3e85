import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';

export interface EdgeFunction {
  name: string;
  entry: string;
  /** Hosted Supabase's default is true: a valid JWT of the project (any role) in Authorization. */
  verifyJwt: boolean;
}

/**
 * The functions the local stack serves: every folder of supabase/functions with an index.ts, except the
 * `_shared` style folders (the CLI deploys no function whose name starts with an underscore). verify_jwt comes
 * from `[functions.<name>]` of supabase/config.toml, as `supabase functions serve` and deploy read it.
 */
export function discoverFunctions(functionsDir: string, configToml: string): Map<string, EdgeFunction> {
  const config = existsSync(configToml) ? (parse(readFileSync(configToml, 'utf8')) as { functions?: Record<string, { verify_jwt?: unknown }> }) : {};
  const found = new Map<string, EdgeFunction>();
  if (!existsSync(functionsDir)) return found;
  for (const entry of readdirSync(functionsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
    const file = join(functionsDir, entry.name, 'index.ts');
    if (!existsSync(file)) continue;
    found.set(entry.name, {
      name: entry.name,
      entry: file,
      verifyJwt: config.functions?.[entry.name]?.verify_jwt !== false,
    });
  }
  return found;
}
