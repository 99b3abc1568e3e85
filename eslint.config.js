// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Features never reach into each other: one zone per feature forbids importing any other feature.
const features = readdirSync(new URL('./shared/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureZones = features.map((feature) => ({
  target: `./shared/features/${feature}`,
  from: './shared/features',
  except: [`./${feature}`],
  message: 'Features do not import each other; move shared code to shared/lib or shared/components.',
}));

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.storewise*/**', 'shared/lib/database.types.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // shared/ is the product UI: it never imports Electron, the main process or an entry point.
            { target: './shared', from: './src', message: 'shared/ must not import the Electron main process or preload.' },
            { target: './shared', from: './web', message: 'shared/ must not import the web entry.' },
            { target: './shared', from: './renderer', message: 'shared/ must not import the desktop entry.' },
            { target: './shared', from: './supabase', message: 'shared/ talks to Supabase only over HTTP through supabase-js.' },
            // Direction: components/lib -> features -> app.
            { target: './shared/components', from: './shared/features', message: 'components must not depend on features.' },
            { target: './shared/components', from: './shared/app', message: 'components must not depend on app.' },
            { target: './shared/lib', from: './shared/features', message: 'lib must not depend on features.' },
            { target: './shared/lib', from: './shared/app', message: 'lib must not depend on app.' },
            { target: './shared/features', from: './shared/app/routes.tsx', message: 'features must not import the router.' },
            ...featureZones,
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.{ts,tsx}', 'web/**/*.{ts,tsx}', 'renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'UI code runs in the browser; use the Platform interface.' }] }],
    },
  },
);
