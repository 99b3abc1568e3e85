import { z } from 'zod';

/**
 * The shapes the admin RPCs answer with, checked at the edge: counts are bigint in SQL (numbers or strings
 * on the wire, depending on the server), money is numeric (kept as given, formatMoney reads both).
 */
const count = z.coerce.number().int().nonnegative();
const money = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]);
const timestamp = z.string().min(1);

export const adminOverviewSchema = z.object({
  total_profiles: count,
  active_users: count,
  total_revenue: money,
  open_tickets: count,
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

export const adminUserRowSchema = z.object({
  id: z.guid(),
  full_name: z.string().nullable(),
  business_name: z.string().nullable(),
  business_type: z.string().nullable(),
  business_email: z.string().nullable(),
  phone: z.string().nullable(),
  created_at: timestamp,
  total_count: count,
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminPlanRowSchema = z.object({
  id: z.guid(),
  user_id: z.guid(),
  owner_name: z.string().nullable(),
  plan_name: z.string(),
  price: money,
  billing_cycle: z.string(),
  status: z.string(),
  auto_renew: z.boolean(),
  next_billing_date: timestamp.nullable(),
  created_at: timestamp,
  total_count: count,
});
export type AdminPlanRow = z.infer<typeof adminPlanRowSchema>;

/** The same bounds the SQL functions enforce (limit 1..100, search at most 100 characters). */
export const PAGE_SIZE_MAX = 100;
export const SEARCH_MAX = 100;

export const pageRequestSchema = z.object({
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1).max(PAGE_SIZE_MAX),
});
export type PageRequest = z.infer<typeof pageRequestSchema>;

export const usersRequestSchema = pageRequestSchema.extend({
  search: z.string().trim().max(SEARCH_MAX, `Search at most ${SEARCH_MAX} characters`),
});
export type UsersRequest = z.input<typeof usersRequestSchema>;

/** One page of a list and the size of the whole list. */
export interface Page<T> {
  rows: T[];
  total: number;
}
