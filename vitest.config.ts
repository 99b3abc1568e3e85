import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Four projects: unit (plain Node), components (jsdom), integration (real Postgres, HTTP, keychain) and
// hosted (the Supabase CLI against a hosted-shaped PostgreSQL 15).
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'src/**/*.test.ts', 'supabase/local/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/lint/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'components',
          environment: 'jsdom',
          include: ['shared/**/*.test.tsx', 'web/**/*.test.tsx', 'renderer/**/*.test.tsx'],
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
