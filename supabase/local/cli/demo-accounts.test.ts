import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemoAccounts } from './demo-accounts';

describe('readDemoAccounts', () => {
  it('reads the machine-readable demo-account lines and ignores everything else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storewise-seed-'));
    try {
      const file = join(dir, 'seed.sql');
      writeFileSync(
        file,
        [
          '-- Storewise demo data',
          '-- demo-account: admin@storewise.local | storewise-admin | admin | Avery Admin, opens /admin',
          "insert into x values ('-- demo-account: not | a | comment');",
          '-- demo-account: owner1@storewise.local | storewise-owner | owner | Olivia | Growth plan',
        ].join('\n'),
      );
      expect(readDemoAccounts(file)).toEqual([
        { email: 'admin@storewise.local', password: 'storewise-admin', role: 'admin', description: 'Avery Admin, opens /admin' },
        { email: 'owner1@storewise.local', password: 'storewise-owner', role: 'owner', description: 'Olivia | Growth plan' },
      ]);
      expect(readDemoAccounts(join(dir, 'missing.sql'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
