import { describe, expect, it } from 'vitest';
import { adminOverviewSchema, adminUserRowSchema, usersRequestSchema } from './admin-schemas';

describe('adminOverviewSchema', () => {
  it('accepts bigint counts sent as strings and keeps the revenue as sent', () => {
    const parsed = adminOverviewSchema.parse({ total_profiles: '100004', active_users: 7, total_revenue: '529.71', open_tickets: 2 });
    expect(parsed).toEqual({ total_profiles: 100004, active_users: 7, total_revenue: '529.71', open_tickets: 2 });
  });

  it('rejects what a count or an amount can never be', () => {
    expect(() => adminOverviewSchema.parse({ total_profiles: -1, active_users: 0, total_revenue: 0, open_tickets: 0 })).toThrow();
    expect(() => adminOverviewSchema.parse({ total_profiles: 1, active_users: 0, total_revenue: 'lots', open_tickets: 0 })).toThrow();
  });
});

describe('adminUserRowSchema', () => {
  it('allows the profile fields sign-up may leave empty', () => {
    const row = {
      id: '22222222-2222-4222-8222-222222222222',
      full_name: null,
      business_name: null,
      business_type: null,
      business_email: null,
      phone: null,
      created_at: '2026-01-05T10:00:00+00:00',
      total_count: 1,
    };
    expect(adminUserRowSchema.parse(row)).toEqual(row);
  });
});

describe('usersRequestSchema', () => {
  it('trims the search and enforces the bounds the database enforces', () => {
    expect(usersRequestSchema.parse({ search: '  ann ', page: 2, pageSize: 20 })).toEqual({ search: 'ann', page: 2, pageSize: 20 });
    expect(() => usersRequestSchema.parse({ search: 'x'.repeat(101), page: 1, pageSize: 20 })).toThrow();
    expect(() => usersRequestSchema.parse({ search: '', page: 0, pageSize: 20 })).toThrow();
    expect(() => usersRequestSchema.parse({ search: '', page: 1, pageSize: 101 })).toThrow();
  });
});
