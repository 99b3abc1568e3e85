// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/admin.sql: admin_billing_overview()
import type { StorewiseClient } from '../../../lib/supabase-client';
import { AdminApiError } from '../admin-api';
import { billingOverviewSchema, type BillingOverview } from './billing-schema';

/** The billing figures, computed by the database in one call (admins only: 42501 otherwise). */
export async function fetchBillingOverview(supabase: StorewiseClient, days = 7): Promise<BillingOverview> {
  const { data, error } = await supabase.rpc('admin_billing_overview', { _days: days });
  if (error) throw new AdminApiError(error.message, error.code);
  return billingOverviewSchema.parse(data);
}
