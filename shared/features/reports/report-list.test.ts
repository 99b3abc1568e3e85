import { describe, expect, it } from 'vitest';
import { allReports, reportsFor } from './report-list';

const names = (packs: string[] | null) => reportsFor(packs).map(([value]) => value);

describe('the reports a business gets', () => {
  it('offers sell-through by collection beside Products with the clothing pack', () => {
    expect(names(['size_grid', 'lots_fefo'])).toEqual(allReports.map(([value]) => value));
    expect(names(['size_grid']).indexOf('collections')).toBe(names(['size_grid']).indexOf('sellers') + 1);
  });

  it('leaves it out without the pack, or while the packs load', () => {
    expect(names(['lots_fefo'])).not.toContain('collections');
    expect(names(null)).not.toContain('collections');
    expect(names([])).toEqual(allReports.map(([value]) => value).filter((v) => v !== 'collections'));
  });
});
