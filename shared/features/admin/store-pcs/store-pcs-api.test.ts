import { describe, expect, it } from 'vitest';
import { compareVersions, versionShares, type StorePcRow } from './store-pcs-api';

const row = (app_version: string, devices_on_version: number, total_count: number): StorePcRow => ({
  business_id: 'b', business_name: 'Shop', device_id: crypto.randomUUID(), app_version, channel: 'stable',
  platform: 'win32', arch: 'x64', reported_at: '2026-12-01T10:00:00Z', devices_on_version, total_count,
});

describe('the rollout at a glance', () => {
  it('orders versions newest first, a pre-release before its release', () => {
    const sorted = ['1.4.0', '1.10.0', '1.5.0-beta.2', '1.5.0', '1.5.0-beta.10', '1.9.9'].sort(compareVersions);
    expect(sorted).toEqual(['1.4.0', '1.5.0-beta.2', '1.5.0-beta.10', '1.5.0', '1.9.9', '1.10.0']);
  });

  it('takes the counts from the function (all devices), not from the page', () => {
    // A page of 3 rows out of 40 devices: 30 on 1.5.0, 10 on 1.4.0.
    expect(versionShares([row('1.5.0', 30, 40), row('1.5.0', 30, 40), row('1.4.0', 10, 40)])).toEqual([
      { version: '1.5.0', devices: 30, percent: 75 },
      { version: '1.4.0', devices: 10, percent: 25 },
    ]);
    expect(versionShares([])).toEqual([]);
  });
});
