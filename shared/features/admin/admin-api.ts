// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/admin.sql: admin_list_plans() admin_list_users() admin_overview()
import type { StorewiseClient } from '../../lib/supabase-client';
import {
  adminOverviewSchema,
  adminPlanRowSchema,
  adminUserRowSchema,
  pageRequestSchema,
  usersRequestSchema,
  type AdminOverview,
  type AdminPlanRow,
  type AdminUserRow,
  type Page,
  type PageRequest,
  type UsersRequest,
} from './admin-schemas';

/** An error answered by the data API, with its SQLSTATE/PostgREST code (42501: not an admin). */
export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

type RpcResult = { data: unknown; error: { message: string; code?: string } | null };

function rowsOf(result: RpcResult): unknown[] {
  if (result.error) throw new AdminApiError(result.error.message, result.error.code);
  if (!Array.isArray(result.data)) throw new AdminApiError('Unexpected answer from the server');
  return result.data;
}

function toPage<T extends { total_count: number }>(rows: T[]): Page<T> {
  return { rows, total: rows[0]?.total_count ?? 0 };
}

/** The four admin figures, read from the database's running totals in one call. */
export async function fetchAdminOverview(supabase: StorewiseClient): Promise<AdminOverview> {
  const [row] = rowsOf(await supabase.rpc('admin_overview'));
  return adminOverviewSchema.parse(row);
}

/** Profiles newest first; `search` is a case-insensitive substring of the full name. */
export async function fetchAdminUsers(supabase: StorewiseClient, request: UsersRequest): Promise<Page<AdminUserRow>> {
  const { search, page, pageSize } = usersRequestSchema.parse(request);
  const result = await supabase.rpc('admin_list_users', {
    _search: search || undefined,
    _limit: pageSize,
    _offset: (page - 1) * pageSize,
  });
  return toPage(adminUserRowSchema.array().parse(rowsOf(result)));
}

/** User plans newest first with the owner's full name. */
export async function fetchAdminPlans(supabase: StorewiseClient, request: PageRequest): Promise<Page<AdminPlanRow>> {
  const { page, pageSize } = pageRequestSchema.parse(request);
  const result = await supabase.rpc('admin_list_plans', { _limit: pageSize, _offset: (page - 1) * pageSize });
  return toPage(adminPlanRowSchema.array().parse(rowsOf(result)));
}
