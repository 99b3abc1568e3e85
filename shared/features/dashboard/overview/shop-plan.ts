// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/workspace.sql: my_workspaces()
import type { StorewiseClient } from '../../../lib/supabase-client';
import { unwrap } from '../api-result';

export interface ShopPlan {
  business: string;
  plan: string;
  role: string;
}

/** The workspace chosen on this device (the Business switcher's key; features do not import each other). */
function rememberedWorkspace(userId: string): string | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage.getItem(`storewise.workspace.${userId}`);
  } catch {
    return null;
  }
}

/**
 * For staff (issue 25): the plan of the shop they work in, read from my_workspaces (the business's plan in force,
 * which any member may read), instead of their own empty plan row ("Free - Upgrade Plan"). The shop is the
 * workspace chosen on this device, else the first (owned ones come first). Null when that workspace is the user's
 * own: their plan is the one that counts, and theirs to change.
 */
export async function fetchShopPlan(supabase: StorewiseClient, userId: string, remembered = rememberedWorkspace(userId)): Promise<ShopPlan | null> {
  const open = (unwrap(await supabase.rpc('my_workspaces')) ?? []).filter((w) => !w.suspended_at);
  const current = open.find((w) => w.id === remembered) ?? open[0];
  if (!current || current.role === 'owner') return null;
  return { business: current.name, plan: current.plan, role: current.role };
}
