import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Projects: unit (plain Node), components (jsdom), integration (real Postgres, HTTP, keychain) and hosted (the
// Supabase CLI against a hosted-shaped PostgreSQL 15). Unit and components files share their worker's module graph
// (and jsdom) instead of loading React, Chakra, zod and supabase-js again for every file (docs/adr/0380): 197 s to
// about 21 s for unit, 135 s to about 18 s for components. A file there must leave nothing behind (remove only
// the nodes it added, restore what it stubbed); the files that replace modules (vi.mock) keep an isolated project,
// since a shared graph would carry their mocks into other files.
const unitFiles = ['shared/**/*.test.ts', 'src/**/*.test.ts', 'supabase/local/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/lint/**/*.test.ts'];
const componentFiles = ['shared/**/*.test.tsx', 'web/**/*.test.tsx', 'renderer/**/*.test.tsx'];
export const unitModuleMocks = ['src/main/index.test.ts', 'src/preload/index.test.ts', 'supabase/local/gateway/api-key.test.ts'];
export const componentModuleMocks = ['web/offline-shell.test.tsx', 'shared/features/reports/business-overview.test.tsx'];

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          isolate: false,
          include: unitFiles,
          exclude: [...configDefaults.exclude, ...unitModuleMocks],
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          environment: 'node',
          include: unitModuleMocks,
        },
      },
      {
        extends: true,
        test: {
          name: 'components',
          environment: 'jsdom',
          isolate: false,
          include: componentFiles,
          exclude: [...configDefaults.exclude, ...componentModuleMocks],
          setupFiles: ['tests/helpers/jsdom-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'components-isolated',
          environment: 'jsdom',
          include: componentModuleMocks,
          setupFiles: ['tests/helpers/jsdom-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/db/**/*.test.ts', 'tests/local-stack/**/*.test.ts', 'tests/desktop/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts its own stack on free ports; two at a time fits 2 cores.
          maxWorkers: 2,
          // Migrations and seed are applied once per run, into template folders every file copies.
          globalSetup: ['tests/helpers/integration-templates.ts'],
          setupFiles: ['tests/helpers/integration-env.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The real Supabase CLI against a hosted-shaped PostgreSQL 15 server (npm run test:hosted).
          name: 'hosted',
          environment: 'node',
          include: ['tests/hosted/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          // Runs after the other projects when several are selected (vitest groups projects by this).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
