/**
 * Where a copy on the device reads its next delta from (the customers' copy, customers-cache.ts). A delta starts from
 * the newest changed_at the server returned, never the device clock (a till's clock may be wrong), minus a small
 * overlap: a row changed in a transaction that committed after the last read but stamped before it is read again
 * rather than missed. (The register's catalog moved to revisions per block, ADR 0445.)
 */

/** How far back a delta reads before the newest change it saw (see above). */
export const DELTA_OVERLAP_MS = 5 * 60 * 1000;

/** Where a delta starts reading: `since` (the newest change seen, in server time) less DELTA_OVERLAP_MS. */
export const deltaStart = (since: string): string => new Date(Date.parse(since) - DELTA_OVERLAP_MS).toISOString();

/** The newest of `since` and the stamps, as ISO text (which compares in time order once in one format). */
export function newestStamp(stamps: (string | null | undefined)[], since: string | null): string | null {
  let latest = since;
  for (const stamp of stamps) {
    const at = stamp ? new Date(stamp).toISOString() : null;
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}
