// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/workspace.sql: my_workspaces()
import type { StorewiseClient } from '../../../lib/supabase-client';
import { unwrap } from '../api-result';

export interface ShopPlan {
  business: string;
  plan: string;
  role: string;
}

/**
 * For staff (issue 25): the plan of the shop they work in, read from my_workspaces (the business's plan in force,
 * which any member may read), instead of their own empty plan row ("Free - Upgrade Plan"). Null for anyone who owns
 * a business (their own plan is the one that counts, and theirs to change) or belongs to none.
 */
export async function fetchShopPlan(supabase: StorewiseClient): Promise<ShopPlan | null> {
  const workspaces = unwrap(await supabase.rpc('my_workspaces')) ?? [];
  // Owners come first in my_workspaces' order.
  const [first] = workspaces;
  if (!first || first.role === 'owner') return null;
  return { business: first.name, plan: first.plan, role: first.role };
}
