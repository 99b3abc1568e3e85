// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/admin.sql: admin_list_businesses() admin_set_business_suspension()
import { z } from 'zod';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { AdminApiError } from '../admin-api';

/** One business of admin_list_businesses (docs/permissions.md): validated at the edge like the other admin lists. */
export const accountRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  owner_id: z.string(),
  owner_name: z.string().nullable(),
  owner_email: z.string().nullable(),
  plan: z.string(),
  plan_status: z.string().nullable(),
  stores: z.number(),
  members: z.number(),
  created_at: z.string(),
  suspended_at: z.string().nullable(),
  suspended_reason: z.string().nullable(),
  total_count: z.number(),
});
export type AccountRow = z.infer<typeof accountRowSchema>;

export async function fetchAccounts(supabase: StorewiseClient, search: string, page: number, pageSize: number) {
  const { data, error } = await supabase.rpc('admin_list_businesses', {
    _search: search || undefined, _limit: pageSize, _offset: (page - 1) * pageSize,
  });
  if (error) throw new AdminApiError(error.message, error.code);
  const rows = accountRowSchema.array().parse(data);
  return { rows, total: rows[0]?.total_count ?? 0 };
}

export async function setSuspension(supabase: StorewiseClient, businessId: string, suspended: boolean, reason?: string) {
  const { error } = await supabase.rpc('admin_set_business_suspension', {
    _business_id: businessId, _suspended: suspended, _reason: reason,
  });
  if (error) throw new AdminApiError(error.message, error.code);
}
