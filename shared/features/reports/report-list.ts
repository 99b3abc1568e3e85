/** Every report of the Reports area, in the order of its tabs: [value, label]. */
export const allReports = [
  ['sales', 'Sales'], ['breakdown', 'Breakdown'], ['sellers', 'Products'], ['collections', 'Collections'], ['inventory', 'Inventory'],
  ['shifts', 'Shifts'], ['taxes', 'Taxes'], ['insights', 'Insights'], ['flagged', 'To review'],
] as const;

export type ReportName = (typeof allReports)[number][0];

/** Reports that belong to a pack: offered only when the business has it on (collections come with the clothing pack). */
const reportPack: Partial<Record<ReportName, string>> = { collections: 'size_grid' };

/** The reports a business gets, given its packs (null while they load: the pack reports wait). */
export function reportsFor(packs: string[] | null): (typeof allReports)[number][] {
  return allReports.filter(([value]) => {
    const pack = reportPack[value];
    return !pack || (packs ?? []).includes(pack);
  });
}
