import type { StockStore } from './inventory-api';

/** The store chosen at the top of Inventory, the caller's role in its business, and that business's stores. */
export interface StoreContext {
  store: StockStore;
  stores: StockStore[];
  role: string;
  /** Owners and managers adjust, count, transfer, order and receive (the database enforces the same). */
  canManage: boolean;
  businessId: string;
}
