/** The numbers a pager shows, from a 1-based page, a page size and the list's total. */
export function pageInfo(page: number, pageSize: number, total: number) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : Math.min((page - 1) * pageSize + 1, total);
  const last = Math.min(page * pageSize, total);
  return { pageCount, first, last, hasPrevious: page > 1, hasNext: page < pageCount };
}

const integer = new Intl.NumberFormat('en-US');
/** "100,000": counts in the admin panel. */
export const formatCount = (value: number): string => integer.format(value);
