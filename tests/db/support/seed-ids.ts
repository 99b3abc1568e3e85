/** The fixed ids and accounts of supabase/seed.sql. */
export const seedUsers = {
  admin: { id: '11111111-1111-4111-8111-111111111111', email: 'admin@storewise.local', password: 'storewise-admin' },
  owner1: { id: '22222222-2222-4222-8222-222222222222', email: 'owner1@storewise.local', password: 'storewise-owner' },
  owner2: { id: '33333333-3333-4333-8333-333333333333', email: 'owner2@storewise.local', password: 'storewise-owner' },
  owner3: { id: '44444444-4444-4444-8444-444444444444', email: 'owner3@storewise.local', password: 'storewise-owner' },
  /** owner1's staff at Fresh Corner Market, with till PINs (the shared till, ADR 0350). */
  manager1: { id: '55555555-5555-4555-8555-555555555555', email: 'manager1@storewise.local', password: 'storewise-manager', pin: '4739' },
  cashier1: { id: '66666666-6666-4666-8666-666666666666', email: 'cashier1@storewise.local', password: 'storewise-cashier', pin: '5162' },
  /** Volt & Wire Electronics: the Electronics demo (serials pack), in its own block of seed.sql. */
  owner4: { id: '77777777-7777-4777-8777-777777777777', email: 'owner4@storewise.local', password: 'storewise-owner' },
  owner5: { id: '88888888-8888-4888-8888-888888888888', email: 'owner5@storewise.local', password: 'storewise-owner' },
} as const;
