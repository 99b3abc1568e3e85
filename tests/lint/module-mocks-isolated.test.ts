import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { componentModuleMocks, unitModuleMocks } from '../../vitest.config';

// Unit and component files share their worker's modules (docs/adr/0380): a file that replaces modules with vi.mock
// must run in an isolated project, or its mocks reach other files. The lists in vitest.config.ts are kept by hand;
// this says when one is missing.
describe('module mocks run isolated', () => {
  it('every unit or component test file that calls vi.mock is in an isolated project', () => {
    const tracked = execFileSync('git', ['ls-files', '*.test.ts', '*.test.tsx'], { encoding: 'utf8' }).split('\n');
    const shared = tracked.filter((file) => /^(shared|src|web|renderer|scripts|supabase\/local|tests\/lint)\//.test(file));
    const mocking = shared.filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8')) && file !== 'tests/lint/module-mocks-isolated.test.ts');
    expect(mocking.sort()).toEqual([...unitModuleMocks, ...componentModuleMocks].sort());
  });
});
