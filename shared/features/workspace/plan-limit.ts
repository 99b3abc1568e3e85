
/** SQLSTATE of a plan-limit refusal (private.assert_plan_allows). */
export const PLAN_LIMIT_CODE = 'SW001';

/** Null limits mean unlimited (the generated types cannot say that a function column may be null). */
interface Usage {
  plan: string;
  stores_used: number;
  max_stores: number | null;
}

/** "2 of 3 stores", or "2 stores (unlimited)". */
export function storeUsage(w: Pick<Usage, 'stores_used' | 'max_stores'>): string {
  const noun = (n: number) => (n === 1 ? 'store' : 'stores');
  return w.max_stores === null
    ? `${w.stores_used} ${noun(w.stores_used)} (unlimited on your plan)`
    : `${w.stores_used} of ${w.max_stores} ${noun(w.max_stores)}`;
}

export const atStoreLimit = (w: Pick<Usage, 'stores_used' | 'max_stores'>) =>
  w.max_stores !== null && w.stores_used >= w.max_stores;

/** What the owner reads when the plan refuses a store: the database's words, then what to do. */
export function storeLimitText(w: Usage): string {
  const over = w.max_stores !== null && w.stores_used > w.max_stores;
  return `Your ${w.plan} plan allows ${w.max_stores ?? 'unlimited'} ${w.max_stores === 1 ? 'store' : 'stores'}` +
    (over ? ` and you have ${w.stores_used}: archive ${w.stores_used - (w.max_stores ?? 0)} or upgrade to add one.`
      : '. Upgrade your plan or archive a store to add another.');
}
