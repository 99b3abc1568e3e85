/**
 * Global setup of the integration project: the PGlite template folders (migrations and seed applied, with and
 * without the seed) are built once for the run instead of once in every test file's process. Each worker
 * learns where they are through tests/helpers/integration-env.ts.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildTemplate, templateKey } from '../../supabase/local/db/open-db';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplates: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const variants = [{ seed: true }, { seed: false }];
  const dirs = await Promise.all(variants.map((options) => buildTemplate(options)));
  const map = Object.fromEntries(variants.map((options, i) => [templateKey(options), dirs[i]]));
  project.provide('pgliteTemplates', JSON.stringify(map));
  return () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
}
