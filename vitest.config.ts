import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Three projects: unit (plain Node), components (jsdom) and integration (real Postgres, HTTP, keychain).
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
        },
      },
    ],
  },
});
