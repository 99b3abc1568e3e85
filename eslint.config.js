// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Import directions (docs/adr/0001), enforced with ESLint's own no-restricted-imports: an import-resolver plugin
// would need native bindings the package registry does not carry for every platform.
const features = readdirSync(new URL('./shared/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** shared/ is the product UI: it never imports Electron, the main process, an entry point or the local stack. */
const sharedBoundaries = [
  { group: ['**/src/**', '**/src/*'], message: 'shared/ must not import the Electron main process or preload.' },
  { group: ['**/web/**', '**/web/*'], message: 'shared/ must not import the web entry.' },
  { group: ['**/renderer/**', '**/renderer/*'], message: 'shared/ must not import the desktop entry.' },
  // One exception: the CSV columns the catalog import reads and the business-export Edge Function writes
  // (docs/adr/0290), a file of constants with no import, kept where the function's deploy bundles it.
  { regex: '(^|/)supabase/(?!functions/_shared/export/csv-formats$)', message: 'shared/ talks to Supabase only over HTTP through supabase-js.' },
];
const electronPath = { name: 'electron', message: 'UI code runs in the browser; use the Platform interface.' };

/** One rule per file group: flat config replaces (does not merge) a rule's options, so each group lists all it needs. */
function restrict(files, patterns) {
  return { files, rules: { 'no-restricted-imports': ['error', { paths: [electronPath], patterns }] } };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.storewise*/**', 'shared/lib/database.types.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  restrict(['web/**/*.{ts,tsx}', 'renderer/**/*.{ts,tsx}'], []),
  restrict(['shared/app/**/*.{ts,tsx}', 'shared/platform/**/*.{ts,tsx}'], sharedBoundaries),
  // Direction inside shared/: components and lib -> features -> app.
  restrict(['shared/components/**/*.{ts,tsx}', 'shared/lib/**/*.{ts,tsx}'], [
    ...sharedBoundaries,
    { group: ['**/features/**', '**/features/*'], message: 'components and lib must not depend on features.' },
    { group: ['**/app/**', '**/app/*'], message: 'components and lib must not depend on app.' },
  ]),
  // Features never import app/ nor each other; what two features share goes to shared/lib or shared/components.
  ...features.map((feature) => {
    const others = features.filter((other) => other !== feature).join('|');
    return restrict([`shared/features/${feature}/**/*.{ts,tsx}`], [
      ...sharedBoundaries,
      { group: ['**/app/**', '**/app/*'], message: 'features must not import the app (router, providers).' },
      {
        regex: `^(\\.\\./)+(features/)?(${others})(/|$)`,
        message: 'Features do not import each other; move shared code to shared/lib or shared/components.',
      },
    ]);
  }),
);
