import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

// The import directions of docs/adr/0001, proved on the real ESLint config with imports placed in real folders.
const eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });

async function restrictedImports(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import directions', () => {
  it.each([
    ['shared/features/admin/probe.ts', "export { OverviewPage } from '../dashboard/overview/overview-page';", 'Features do not import each other'],
    ['shared/features/dashboard/billing/probe.ts', "export { AuthPage } from '../../auth/auth-page';", 'Features do not import each other'],
    ['shared/features/landing/probe.ts', "export { App } from '../../app/app';", 'features must not import the app'],
    ['shared/lib/probe.ts', "export { AdminApp } from '../features/admin/admin-app';", 'components and lib must not depend on features'],
    ['shared/components/probe.ts', "export { App } from '../app/app';", 'components and lib must not depend on app'],
    ['shared/app/probe.ts', "export { createWindow } from '../../src/main/window';", 'must not import the Electron main process'],
    ['shared/lib/probe.ts', "export { startLocalStack } from '../../supabase/local/server';", 'only over HTTP'],
    ['shared/features/auth/probe.ts', "export { app } from 'electron';", 'use the Platform interface'],
    ['web/probe.ts', "export { app } from 'electron';", 'use the Platform interface'],
  ])('%s: %s is refused', async (file, source, message) => {
    const messages = await restrictedImports(file, source);
    expect(messages.join('\n')).toContain(message);
  }, 60_000); // the first lint loads the whole ESLint config: seconds on a busy machine

  it.each([
    ['shared/features/dashboard/billing/probe.ts', "export { OverviewPage } from '../overview/overview-page';"],
    ['shared/features/admin/probe.ts', "export { useAuth } from '../../lib/auth-provider';"],
    ['shared/features/auth/probe.ts', "export { notify } from '../../components/toaster';"],
    ['shared/app/probe.ts', "export { LandingPage } from '../features/landing/landing-page';"],
  ])('%s: %s is allowed', async (file, source) => {
    expect(await restrictedImports(file, source)).toEqual([]);
  }, 60_000);
});
