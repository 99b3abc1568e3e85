-- Storewise demo data. Runs once after the migrations on a new local database (the local stack, and
-- `supabase db reset` on the Supabase CLI). It runs as the database owner, so it may write auth.* and
-- private.* directly; profiles, login_activity and active_sessions come from the schema's triggers.
--
-- Demo accounts (machine-readable: the local stack prints these lines at start; the README lists them):
-- demo-account: admin@storewise.local | storewise-admin | admin | Avery Admin, opens the admin panel at /admin
-- demo-account: owner1@storewise.local | storewise-owner | owner | Olivia Grocer, Fresh Corner Market: Growth plan, billing, payment methods, sessions, tickets
-- demo-account: owner2@storewise.local | storewise-owner | owner | Marco Tailor, Thread & Needle: Starter plan on trial, auto-renew off; clothing in sizes by colours, two seasons' collections, last season marked down 30 % today (Reports > Collections, Catalog)
-- demo-account: owner3@storewise.local | storewise-owner | owner | Priya Pharmacist, CarePlus Pharmacy: no plan and no history (empty states)
-- demo-account: manager1@storewise.local | storewise-manager | manager | Dana Manager, manager at Fresh Corner Market: till PIN 4739 (switch the till, approve discounts and refunds)
-- demo-account: cashier1@storewise.local | storewise-cashier | cashier | Carlos Cashier, cashier at Fresh Corner Market: till PIN 5162 (switch the till to him at the register)
-- demo-account: owner4@storewise.local | storewise-owner | owner | Eli Gadget, Volt & Wire Electronics: phones sold by IMEI with warranty, one returned (Inventory > Serial lookup)
-- demo-account: owner5@storewise.local | storewise-owner | owner | Noor Chemist, Riverbend Pharmacy (Ontario, CAD): prescription-only and controlled medicines sold on prescriptions (Inventory > Controlled register); cash rounded to 0.05 and US dollars taken at the owner's rate (Z report of the shift 3 days ago)
--
-- Fixed user ids (tests refer to them):
--   admin  11111111-1111-4111-8111-111111111111
--   owner1 22222222-2222-4222-8222-222222222222
--   owner2 33333333-3333-4333-8333-333333333333
--   owner3 44444444-4444-4444-8444-444444444444
--   manager1 55555555-5555-4555-8555-555555555555 (Fresh Corner Market's manager)
--   cashier1 66666666-6666-4666-8666-666666666666 (Fresh Corner Market's cashier)
--   owner4 77777777-7777-4777-8777-777777777777 (the Electronics demo, its own block at the end)
--   owner5 88888888-8888-4888-8888-888888888888 (the Pharmacy demo, its own block after the Electronics one)
--   (owner2's Thread & Needle is the Clothing demo: its catalog, stock and sales are in their own block at the end)
--
-- Expected admin figures right after seeding (tests assert them):
--   profiles count                 8        (the admin, five owners, owner1's manager and cashier; owner4 and owner5 have no plan, billing, tickets or sessions)
--   plans with auto_renew true     1        (owner1; owner2 has auto_renew off, owner3 has no plan)
--   total billing amount           529.71   (owner1 399.84 over 6 rows + owner2 129.87 over 3 rows)
--   open support tickets           2        (owner1 1 of 3, owner2 1 of 1)
--   payment methods                3        (owner1 visa default + mastercard, owner2 mobile default)
--   login_activity rows            owner1 5 (3 seeded history + 2 sessions), owner2 1
--   active_sessions rows           owner1 2 (desktop current), owner2 1
--
-- Dates are relative to now() so the demo always looks current.

-- ---------------------------------------------------------------------------------------------------
-- Users, as GoTrue stores them. GoTrue reads the token columns into Go strings, so they must be '' and
-- not null. The handle_new_user trigger creates each profile from raw_user_meta_data.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change, email_change_token_current,
  phone_change, phone_change_token, reauthentication_token
)
select
  '00000000-0000-0000-0000-000000000000'::uuid, u.id, 'authenticated', 'authenticated', u.email,
  extensions.crypt(u.password, extensions.gen_salt('bf', 10)),
  u.created_at, u.last_sign_in_at,
  '{"provider":"email","providers":["email"]}'::jsonb, u.meta, u.created_at, u.created_at,
  '', '', '', '', '', '', '', ''
from (values
  ('11111111-1111-4111-8111-111111111111'::uuid, 'admin@storewise.local', 'storewise-admin',
   now() - interval '400 days', null::timestamptz,
   jsonb_build_object('full_name', 'Avery Admin', 'business_name', 'Storewise', 'business_type', 'Others',
                      'phone', '+1 555 010 0100', 'business_email', 'admin@storewise.local')),
  ('22222222-2222-4222-8222-222222222222'::uuid, 'owner1@storewise.local', 'storewise-owner',
   now() - interval '140 days', now() - interval '2 hours',
   jsonb_build_object('full_name', 'Olivia Grocer', 'business_name', 'Fresh Corner Market', 'business_type', 'Grocery',
                      'phone', '+1 555 010 0101', 'business_email', 'hello@freshcorner.example')),
  ('33333333-3333-4333-8333-333333333333'::uuid, 'owner2@storewise.local', 'storewise-owner',
   now() - interval '35 days', now() - interval '1 day',
   jsonb_build_object('full_name', 'Marco Tailor', 'business_name', 'Thread & Needle', 'business_type', 'Clothing',
                      'phone', '+1 555 010 0102', 'business_email', 'shop@threadandneedle.example')),
  ('44444444-4444-4444-8444-444444444444'::uuid, 'owner3@storewise.local', 'storewise-owner',
   now() - interval '3 days', null::timestamptz,
   jsonb_build_object('full_name', 'Priya Pharmacist', 'business_name', 'CarePlus Pharmacy', 'business_type', 'Medical',
                      'phone', '+1 555 010 0103', 'business_email', 'care@careplus.example'))
) as u (id, email, password, created_at, last_sign_in_at, meta);

-- One email identity per user, as GoTrue creates on sign-up (provider_id is the user id for 'email').
insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id, u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
       'email', u.last_sign_in_at, u.created_at, u.created_at
from auth.users u
where u.id in ('11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222',
               '33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444');

-- The profiles come from the trigger; keep their creation dates in step with the accounts so the admin
-- list ("newest first") shows a believable history.
update public.profiles p set created_at = u.created_at
from auth.users u
where u.id = p.id
  and u.id in ('11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222',
               '33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444');

insert into private.user_roles (user_id, role) values ('11111111-1111-4111-8111-111111111111', 'admin');

-- ---------------------------------------------------------------------------------------------------
-- Plans: owner1 on an active annual Growth plan that renews; owner2 trialing Starter with auto-renew off.
insert into public.user_plans (user_id, plan_name, price, billing_cycle, status, auto_renew, started_at,
                               next_billing_date, created_at)
values
  ('22222222-2222-4222-8222-222222222222', 'Growth', 29.99, 'annual', 'active', true,
   now() - interval '40 days', now() + interval '325 days', now() - interval '137 days'),
  ('33333333-3333-4333-8333-333333333333', 'Starter', 9.99, 'annual', 'trialing', false,
   now() - interval '2 days', now() + interval '5 days', now() - interval '2 days');

-- ---------------------------------------------------------------------------------------------------
-- Billing history. owner1: 359.88 + 4 x 9.99 + 0.00 = 399.84; owner2: 0.00 + 119.88 + 9.99 = 129.87.
insert into public.billing_history (user_id, amount, date, status, description, invoice_url)
values
  ('22222222-2222-4222-8222-222222222222', 359.88, now() - interval '40 days', 'paid',
   'Growth plan, annual (12 x 29.99)', 'https://invoices.example.com/storewise/SW-1006.pdf'),
  ('22222222-2222-4222-8222-222222222222', 9.99, now() - interval '70 days', 'paid',
   'Starter plan, monthly', 'https://invoices.example.com/storewise/SW-1005.pdf'),
  ('22222222-2222-4222-8222-222222222222', 9.99, now() - interval '100 days', 'paid',
   'Starter plan, monthly', 'https://invoices.example.com/storewise/SW-1004.pdf'),
  ('22222222-2222-4222-8222-222222222222', 9.99, now() - interval '128 days', 'paid',
   'Starter plan, monthly (payment retried)', 'https://invoices.example.com/storewise/SW-1003.pdf'),
  ('22222222-2222-4222-8222-222222222222', 9.99, now() - interval '130 days', 'failed',
   'Starter plan, monthly: card declined', null),
  ('22222222-2222-4222-8222-222222222222', 0.00, now() - interval '137 days', 'paid',
   'Starter plan: 7-day free trial', null),
  ('33333333-3333-4333-8333-333333333333', 119.88, now() - interval '2 days', 'pending',
   'Starter plan, annual (12 x 9.99): charged when the trial ends', null),
  ('33333333-3333-4333-8333-333333333333', 0.00, now() - interval '2 days' - interval '1 minute', 'paid',
   'Starter plan: 7-day free trial', null),
  ('33333333-3333-4333-8333-333333333333', 9.99, now() - interval '30 days', 'refunded',
   'Duplicate charge, refunded', 'https://invoices.example.com/storewise/SW-2001.pdf');

-- ---------------------------------------------------------------------------------------------------
-- Payment methods: at most one default per user (payment_methods_one_default_idx).
insert into public.payment_methods (user_id, type, last_four, expiry, is_default, created_at)
values
  ('22222222-2222-4222-8222-222222222222', 'visa', '4242', '12/28', true, now() - interval '40 days'),
  ('22222222-2222-4222-8222-222222222222', 'mastercard', '5454', '09/27', false, now() - interval '130 days'),
  ('33333333-3333-4333-8333-333333333333', 'mobile', '0199', null, true, now() - interval '30 days');

-- ---------------------------------------------------------------------------------------------------
-- Older sign-ins of owner1 whose sessions have long ended: only the history remains.
insert into public.login_activity (user_id, device, login_at, location, ip_address)
values
  ('22222222-2222-4222-8222-222222222222', 'Firefox on Linux', now() - interval '60 days', 'Local network', '192.168.1.40'),
  ('22222222-2222-4222-8222-222222222222', 'Safari on iOS', now() - interval '21 days', null, '203.0.113.24'),
  ('22222222-2222-4222-8222-222222222222', 'Chrome on Windows', now() - interval '9 days', 'Local network', '192.168.1.23');

-- Live sessions, written as GoTrue writes them: the auth.sessions triggers add login_activity rows and
-- keep active_sessions in step. Inserted oldest first, then refreshed, so the most recently active
-- session of each user ends up current.
insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
values
  ('a2222222-0000-4000-8000-000000000001', '22222222-2222-4222-8222-222222222222',
   now() - interval '3 days', now() - interval '3 days', 'aal1',
   'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
   '192.168.1.23'),
  ('a2222222-0000-4000-8000-000000000002', '22222222-2222-4222-8222-222222222222',
   now() - interval '2 hours', now() - interval '2 hours', 'aal1',
   'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Storewise/0.1.0 Chrome/140.0.0.0 Electron/45.4.1 Safari/537.36',
   '127.0.0.1'),
  ('a3333333-0000-4000-8000-000000000001', '33333333-3333-4333-8333-333333333333',
   now() - interval '1 day', now() - interval '1 day', 'aal1',
   'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
   '10.0.0.7');

-- auth.sessions.refreshed_at is a timestamp without time zone holding UTC, as GoTrue writes it.
update auth.sessions set refreshed_at = timezone('utc', now() - interval '26 hours'), updated_at = now() - interval '26 hours'
where id = 'a2222222-0000-4000-8000-000000000001';
update auth.sessions set refreshed_at = timezone('utc', now() - interval '3 minutes'), updated_at = now() - interval '3 minutes'
where id = 'a2222222-0000-4000-8000-000000000002';
update auth.sessions set refreshed_at = timezone('utc', now() - interval '5 hours'), updated_at = now() - interval '5 hours'
where id = 'a3333333-0000-4000-8000-000000000001';

-- ---------------------------------------------------------------------------------------------------
-- Support tickets: owner1 has one open, one in progress and one resolved; owner2 one open.
insert into public.support_tickets (user_id, subject, message, status, priority, created_at, updated_at)
values
  ('22222222-2222-4222-8222-222222222222', 'Barcode scanner not detected',
   'Since yesterday the USB barcode scanner at the front till is not picked up by the POS screen.',
   'open', 'medium', now() - interval '1 day', now() - interval '1 day'),
  ('22222222-2222-4222-8222-222222222222', 'Add a second store',
   'We are opening a second shop next month. How do I add it under the Growth plan?',
   'in_progress', 'medium', now() - interval '6 days', now() - interval '4 days'),
  ('22222222-2222-4222-8222-222222222222', 'Invoice address',
   'Please put our company name on future invoices.',
   'resolved', 'low', now() - interval '45 days', now() - interval '43 days'),
  ('33333333-3333-4333-8333-333333333333', 'Trial question',
   'Does the Starter trial include the AI assistant?',
   'open', 'medium', now() - interval '2 days', now() - interval '2 days');

-- ---------------------------------------------------------------------------------------------------
-- Workspace (issue 11). Every account got its business from the sign-up trigger above. owner1's Fresh
-- Corner Market has two stores (of the Growth plan's three) with registers; owner2's shop one store.
insert into public.stores (id, business_id, name, address, phone, time_zone, currency, tax_inclusive,
                           default_tax_rate, receipt_header, receipt_footer, created_at)
select s.id, b.id, s.name, s.address, s.phone, s.time_zone, s.currency, s.tax_inclusive, s.rate, s.header, s.footer,
       now() - s.age
  from (values
    ('5a000000-0000-4000-8000-000000000001'::uuid, '22222222-2222-4222-8222-222222222222'::uuid, 'Fresh Corner Downtown',
     '12 Market Street, Springfield', '+1 555 010 0201', 'America/New_York', 'USD', false, 8.875::numeric,
     'Fresh Corner Market - Downtown', 'Thank you for shopping local!', interval '130 days'),
    ('5a000000-0000-4000-8000-000000000002'::uuid, '22222222-2222-4222-8222-222222222222'::uuid, 'Fresh Corner Riverside',
     '4 River Road, Springfield', '+1 555 010 0202', 'America/New_York', 'USD', false, 8.875::numeric,
     'Fresh Corner Market - Riverside', 'Thank you for shopping local!', interval '20 days'),
    ('5a000000-0000-4000-8000-000000000003'::uuid, '33333333-3333-4333-8333-333333333333'::uuid, 'Thread & Needle Studio',
     '9 Tailor Lane, Leeds', '+44 113 496 0000', 'Europe/London', 'GBP', true, 20::numeric,
     'Thread & Needle', 'Alterations within 14 days', interval '30 days')
  ) as s (id, owner_id, name, address, phone, time_zone, currency, tax_inclusive, rate, header, footer, age)
  join public.businesses b on b.owner_id = s.owner_id;

-- TN1 is as old as its store: the Clothing demo's shifts go back three weeks, and a register's first shift cannot open
-- before the register existed (open_shift).
insert into public.registers (business_id, store_id, name, receipt_prefix, created_at)
select s.business_id, s.id, r.name, r.prefix, coalesce(s.created_at + r.after_store, now())
  from (values
    ('5a000000-0000-4000-8000-000000000001'::uuid, 'Front till', 'DT1', null::interval),
    ('5a000000-0000-4000-8000-000000000001'::uuid, 'Express lane', 'DT2', null),
    ('5a000000-0000-4000-8000-000000000002'::uuid, 'Front till', 'RS1', null),
    ('5a000000-0000-4000-8000-000000000003'::uuid, 'Counter', 'TN1', interval '1 hour')
  ) as r (store_id, name, prefix, after_store)
  join public.stores s on s.id = r.store_id;

-- ---------------------------------------------------------------------------------------------------
-- Catalog and inventory (issue 12). owner1's Fresh Corner Market: 240 products in 8 categories (of the
-- Growth plan's 300), one variant each with an EAN-13, cost prices, dairy and bakery tracked by lot with
-- expiry (some expiring within days), opening stock in both stores written as ledger rows with balances
-- that are their sums, reorder points, four suppliers and three purchase orders (draft, ordered, received).
do $$
declare
  v_business uuid := (select b.id from public.businesses b where b.owner_id = '22222222-2222-4222-8222-222222222222');
  v_downtown uuid := '5a000000-0000-4000-8000-000000000001';
  v_riverside uuid := '5a000000-0000-4000-8000-000000000002';
  v_po uuid;
  v_supplier uuid;
begin
  insert into public.categories (business_id, name)
  select v_business, c from unnest(array['Produce', 'Dairy', 'Bakery', 'Pantry', 'Beverages', 'Frozen', 'Snacks',
                                         'Household']) c;

  insert into public.products (business_id, name, category_id, brand, unit, has_lots, requires_expiry, created_at)
  select v_business, a.adj || ' ' || i.item, c.id, a.brand, g.unit, g.lots, g.lots, now() - interval '120 days'
    from (values
      ('Produce', array['Apples', 'Bananas', 'Carrots', 'Tomatoes', 'Potatoes', 'Onions'], 'kg', false),
      ('Dairy', array['Milk', 'Yogurt', 'Butter', 'Cheddar', 'Cream', 'Kefir'], 'each', true),
      ('Bakery', array['Sourdough', 'Bagels', 'Croissants', 'Rye Bread', 'Muffins', 'Baguette'], 'each', true),
      ('Pantry', array['Rice', 'Pasta', 'Olive Oil', 'Flour', 'Honey', 'Oats'], 'each', false),
      ('Beverages', array['Orange Juice', 'Sparkling Water', 'Coffee Beans', 'Green Tea', 'Lemonade', 'Cola'], 'each', false),
      ('Frozen', array['Peas', 'Pizza', 'Berries', 'Ice Cream', 'Dumplings', 'Fish Fillets'], 'each', false),
      ('Snacks', array['Crisps', 'Pretzels', 'Granola Bars', 'Almonds', 'Popcorn', 'Dark Chocolate'], 'each', false),
      ('Household', array['Dish Soap', 'Paper Towels', 'Sponges', 'Laundry Liquid', 'Bin Bags', 'Candles'], 'each', false)
    ) as g (category, items, unit, lots)
    join public.categories c on c.business_id = v_business and c.name = g.category
    cross join unnest(g.items) as i (item)
    cross join (values ('Organic', 'Green Valley'), ('Local', 'Springfield Farms'), ('Classic', 'Corner Basics'),
                       ('Premium', 'Golden Field'), ('Family', 'Corner Basics')) as a (adj, brand);

  -- One variant per product: SKU from the category and a number, price and cost from a stable hash.
  insert into public.variants (business_id, product_id, sku, price, created_at)
  select v_business, p.id,
         upper(left(c.name, 3)) || '-' || lpad((row_number() over (order by c.name, p.name))::text, 4, '0'),
         149 + abs(hashtext(p.name)) % 1800, p.created_at
    from public.products p join public.categories c on c.id = p.category_id
   where p.business_id = v_business;
  insert into public.variant_costs (variant_id, business_id, cost)
  select v.id, v_business, round(v.price * 0.62) from public.variants v where v.business_id = v_business;
  insert into public.barcodes (business_id, variant_id, code, kind)
  select v_business, x.id, x.body || private.gtin_check_digit(x.body)::text, 'ean13'
    from (select v.id, '0840' || lpad((row_number() over (order by v.sku))::text, 8, '0') as body
            from public.variants v where v.business_id = v_business) x;

  -- Scale labels (issue 29, the Grocery pack): weighed produce carries its weight (21 + PLU + kg to 3 decimals),
  -- the deli's pre-packed labels their price (22 + PLU + price); each produce item's base code is its PLU under
  -- the weight rule (PLU 1 is the first produce SKU), so a label printed by the scale sells at the register.
  insert into public.scale_barcode_rules (business_id, name, pattern, kind)
  values (v_business, 'Weighed produce', '21.....{NNDDD}', 'weight'),
         (v_business, 'Priced labels', '22.....{NNNDD}', 'price');
  insert into public.barcodes (business_id, variant_id, code, kind)
  select v_business, x.id, x.body || private.gtin_check_digit(x.body)::text, 'ean13'
    from (select v.id, '21' || lpad((row_number() over (order by v.sku))::text, 5, '0') || '00000' as body
            from public.variants v join public.products p on p.id = v.product_id and p.unit = 'kg'
           where v.business_id = v_business) x;

  -- Two lots per lot-tracked variant: one expiring within three weeks, one later.
  insert into public.lots (business_id, variant_id, lot_number, expires_on)
  select v_business, v.id, 'L' || to_char(current_date, 'YYMM') || '-' || n || right(v.sku, 3),
         current_date + case n when 1 then 2 + abs(hashtext(v.sku)) % 19 else 30 + abs(hashtext(v.sku)) % 60 end
    from public.variants v join public.products p on p.id = v.product_id and p.has_lots
   cross join generate_series(1, 2) n
   where v.business_id = v_business;

  -- Opening stock, as ledger rows; the balances are their sums.
  insert into public.stock_movements (business_id, store_id, variant_id, lot_id, kind, qty, unit_cost, occurred_at,
                                      recorded_at, note)
  select v_business, s.id, v.id, l.id, 'opening',
         case when p.unit = 'kg' then (5 + abs(hashtext(v.sku || s.id::text)) % 40) + 0.250
              else 6 + abs(hashtext(v.sku || s.id::text || coalesce(l.lot_number, ''))) % 60 end,
         c.cost, now() - interval '20 days', now() - interval '20 days', 'opening stock'
    from public.variants v
    join public.products p on p.id = v.product_id
    join public.variant_costs c on c.variant_id = v.id
    cross join (values (v_downtown), (v_riverside)) as s (id)
    left join public.lots l on l.variant_id = v.id
   where v.business_id = v_business;
  insert into public.stock_balances (business_id, store_id, variant_id, lot_id, qty)
  select v_business, m.store_id, m.variant_id, m.lot_id, sum(m.qty)
    from public.stock_movements m where m.business_id = v_business
   group by m.store_id, m.variant_id, m.lot_id;
  insert into public.activity (business_id, store_id, kind, entity_type, after, at)
  select v_business, s, 'stock.opening', 'store', jsonb_build_object('movements', count(*)), now() - interval '20 days'
    from public.stock_movements m cross join unnest(array[v_downtown, v_riverside]) s
   where m.business_id = v_business and m.store_id = s
   group by s;

  insert into public.reorder_points (business_id, store_id, variant_id, reorder_point, target_level)
  select v_business, v_downtown, v.id, 20, 60
    from public.variants v join public.products p on p.id = v.product_id
   where v.business_id = v_business and p.unit = 'each' and v.sku like 'PAN-%';

  insert into public.suppliers (business_id, name, contact_name, email, phone, notes) values
    (v_business, 'Valley Produce Co.', 'Sam Rivera', 'orders@valleyproduce.example', '+1 555 010 0301', 'Deliveries Mon/Thu'),
    (v_business, 'Dairy Direct', 'Jo Chen', 'sales@dairydirect.example', '+1 555 010 0302', null),
    (v_business, 'Baker Street Bakery', 'Ana Baker', 'wholesale@bakerstreet.example', '+1 555 010 0303', 'Order by 2 pm'),
    (v_business, 'Pantry Wholesale', 'Lee Park', 'orders@pantrywholesale.example', '+1 555 010 0304', null);

  -- A draft at Downtown, an ordered one at Riverside, a received one at Downtown (through the ledger).
  select s.id into v_supplier from public.suppliers s where s.business_id = v_business and s.name = 'Pantry Wholesale';
  insert into public.purchase_orders (business_id, store_id, supplier_id, notes, expected_on)
  values (v_business, v_downtown, v_supplier, 'Weekly pantry top-up', current_date + 5) returning id into v_po;
  insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
  select v_business, v_po, v.id, 24, c.cost from public.variants v join public.variant_costs c on c.variant_id = v.id
   where v.business_id = v_business and v.sku like 'PAN-%' order by v.sku limit 5;

  select s.id into v_supplier from public.suppliers s where s.business_id = v_business and s.name = 'Dairy Direct';
  insert into public.purchase_orders (business_id, store_id, supplier_id, notes, expected_on)
  values (v_business, v_riverside, v_supplier, 'Dairy restock', current_date + 2) returning id into v_po;
  insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
  select v_business, v_po, v.id, 12, c.cost from public.variants v join public.variant_costs c on c.variant_id = v.id
   where v.business_id = v_business and v.sku like 'DAI-%' order by v.sku limit 4;
  update public.purchase_orders set status = 'ordered' where id = v_po;

  select s.id into v_supplier from public.suppliers s where s.business_id = v_business and s.name = 'Valley Produce Co.';
  insert into public.purchase_orders (business_id, store_id, supplier_id, notes, created_at)
  values (v_business, v_downtown, v_supplier, 'Produce delivery', now() - interval '10 days') returning id into v_po;
  insert into public.purchase_order_lines (business_id, purchase_order_id, variant_id, qty_ordered, unit_cost)
  select v_business, v_po, v.id, 15, c.cost from public.variants v join public.variant_costs c on c.variant_id = v.id
   where v.business_id = v_business and v.sku like 'PRO-%' order by v.sku limit 3;
  update public.purchase_orders set status = 'ordered' where id = v_po;
  perform private.apply_movement(v_business, v_downtown, l.variant_id, null, 'receive', l.qty_ordered, null, l.unit_cost,
                                 now() - interval '9 days', 'purchase_order', v_po, null)
     from public.purchase_order_lines l where l.purchase_order_id = v_po;
  update public.purchase_order_lines set qty_received = qty_ordered where purchase_order_id = v_po;
  perform set_config('storewise.receiving', 'on', true);
  update public.purchase_orders set status = 'received' where id = v_po;
  perform set_config('storewise.receiving', '', true);
end;
$$;

-- ---------------------------------------------------------------------------------------------------
-- Point of sale (issue 13, helper H-pos). 21 days and today's morning of trading at owner1's Downtown (two registers) and Riverside
-- (one): a closed shift per register per day, 6 to 13 sales per shift of 1 to 3 non-lot items, cash or card, a
-- dozen customers; written set-based into the same tables post_sale writes, with a ledger row per line and the
-- balances moved by the same sums (plus a restock receipt where a shop would otherwise have sold below zero).
do $$
declare
  v_business uuid := (select b.id from public.businesses b where b.owner_id = '22222222-2222-4222-8222-222222222222');
  v_owner uuid := '22222222-2222-4222-8222-222222222222';
begin
  insert into public.customers (business_id, name, phone, email)
  select v_business, c.name, c.phone, c.email
    from (values ('Maria Lopez', '+1 555 010 1001', 'maria.lopez@example.com'),
                 ('James Carter', '+1 555 010 1002', null),
                 ('Aisha Khan', null, 'aisha.khan@example.com'),
                 ('Tom Becker', '+1 555 010 1004', 'tom.becker@example.com'),
                 ('Lena Novak', '+1 555 010 1005', null),
                 ('Chen Wei', '+1 555 010 1006', 'chen.wei@example.com'),
                 ('Priya Nair', null, 'priya.nair@example.com'),
                 ('Samuel Okoro', '+1 555 010 1008', null),
                 ('Grace Kim', '+1 555 010 1009', 'grace.kim@example.com'),
                 ('Oliver Smith', '+1 555 010 1010', null),
                 ('Fatima Zahra', '+1 555 010 1011', 'fatima.zahra@example.com'),
                 ('Noah Brown', null, 'noah.brown@example.com')) as c (name, phone, email);

  -- Day 0 is today: a shift from 08:00 (or three hours ago, before 11:00) that closed a few minutes ago, so the
  -- Overview's today-against-last-week cards have a day to compare. It is closed: a register in the demo has no
  -- open shift, so the first thing a cashier does is open one.
  create temporary table seed_pos_shifts on commit drop as
  select gen_random_uuid() as id, r.id as register_id, r.store_id, r.receipt_prefix, d.day,
         case when d.day = 0 then least(t.today + time '08:00', t.local_now - interval '3 hours')
              else t.today - d.day + time '08:00' end at time zone 'America/New_York' as opened_at,
         case when d.day = 0 then t.local_now - interval '5 minutes'
              else t.today - d.day + time '20:00' end at time zone 'America/New_York' as closed_at,
         20000::bigint as opening_float,
         case when d.day = 0 then 4 else 6 end + abs(hashtext(r.receipt_prefix || d.day)) % 8 as sales
    from public.registers r
   cross join (select (now() at time zone 'America/New_York')::date as today,
                      now() at time zone 'America/New_York' as local_now) t
   cross join generate_series(0, 21) as d (day)
   where r.business_id = v_business;

  create temporary table seed_pos_items on commit drop as
  select row_number() over (order by v.sku) as n, v.id as variant_id, p.unit, p.tax_rate, v.price,
         coalesce(c.cost, 0) as cost, p.name
    from public.variants v join public.products p on p.id = v.product_id
    left join public.variant_costs c on c.variant_id = v.id
   where v.business_id = v_business and not p.has_lots and p.track_stock and v.archived_at is null;

  create temporary table seed_pos_sales on commit drop as
  select gen_random_uuid() as id, s.id as shift_id, s.register_id, s.store_id, s.receipt_prefix, k,
         s.opened_at + make_interval(mins => 15 + (abs(hashtext(s.id::text || k))
                                                    % (extract(epoch from s.closed_at - s.opened_at)::int / 60 - 20))) as occurred_at,
         case when abs(hashtext(s.id::text || k || 'c')) % 4 = 0
              then (select c.id from public.customers c where c.business_id = v_business
                     order by c.name offset abs(hashtext(s.id::text || k)) % 12 limit 1) end as customer_id,
         case when abs(hashtext(s.id::text || k || 't')) % 3 = 0 then 'cash' else 'card' end as tender
    from seed_pos_shifts s cross join lateral generate_series(1, s.sales) as k;

  create temporary table seed_pos_lines on commit drop as
  select x.id as sale_id, x.store_id, l as line_no, i.variant_id, i.name, i.cost,
         case when i.unit = 'kg' then 0.5 + (abs(hashtext(x.id::text || l)) % 5) * 0.25
              else 1 + abs(hashtext(x.id::text || l)) % 2 end as qty,
         coalesce(sp.price, i.price) as unit_price, coalesce(i.tax_rate, st.default_tax_rate) as tax_rate,
         st.tax_inclusive
    from seed_pos_sales x
    join public.stores st on st.id = x.store_id
    cross join lateral generate_series(1, 1 + abs(hashtext(x.id::text)) % 3) as l
    join seed_pos_items i on i.n = 1 + abs(hashtext(x.id::text || 'v' || l)) % (select count(*) from seed_pos_items)
    left join public.store_prices sp on sp.store_id = x.store_id and sp.variant_id = i.variant_id;
  alter table seed_pos_lines add column gross bigint, add column tax bigint, add column total bigint;
  update seed_pos_lines set gross = round(unit_price * qty);
  update seed_pos_lines set tax = case when tax_inclusive then round(gross * tax_rate / (100 + tax_rate))
                                       else round(gross * tax_rate / 100) end;
  update seed_pos_lines set total = case when tax_inclusive then gross else gross + tax end;

  -- Inserted closed (one open shift per register); the count is filled in once the sales are there.
  insert into public.shifts (id, business_id, store_id, register_id, cashier_id, opened_at, opening_float, closed_at,
                             closed_by, counted_total)
  select s.id, v_business, s.store_id, s.register_id, v_owner, s.opened_at, s.opening_float, s.closed_at, v_owner, 0
    from seed_pos_shifts s;

  insert into public.sales (id, business_id, store_id, register_id, shift_id, cashier_id, customer_id, receipt_number,
                            currency, tax_inclusive, subtotal, discount_total, tax_total, total, tendered_total,
                            change_total, occurred_at, recorded_at)
  select x.id, v_business, x.store_id, x.register_id, x.shift_id, v_owner, x.customer_id,
         private.receipt_number(x.receipt_prefix, row_number() over (partition by x.register_id order by x.occurred_at, x.id)),
         st.currency, st.tax_inclusive, t.gross, 0, t.tax, t.total,
         case when x.tender = 'cash' then ceil(t.total / 500.0)::bigint * 500 else t.total end,
         case when x.tender = 'cash' then ceil(t.total / 500.0)::bigint * 500 - t.total else 0 end,
         x.occurred_at, x.occurred_at
    from seed_pos_sales x
    join public.stores st on st.id = x.store_id
    join (select sale_id, sum(gross) as gross, sum(tax) as tax, sum(total) as total from seed_pos_lines group by sale_id) t
      on t.sale_id = x.id;
  insert into private.register_counters (register_id, last_seq)
  select x.register_id, count(*) from seed_pos_sales x group by x.register_id;

  insert into public.sale_lines (business_id, store_id, sale_id, line_no, variant_id, description, qty, unit_price,
                                 discount, tax_rate, tax_amount, line_total)
  select v_business, l.store_id, l.sale_id, l.line_no, l.variant_id, l.name, l.qty, l.unit_price, 0, l.tax_rate, l.tax,
         l.total
    from seed_pos_lines l;
  insert into public.sale_line_costs (sale_line_id, business_id, store_id, unit_cost)
  select sl.id, v_business, sl.store_id, l.cost
    from public.sale_lines sl join seed_pos_lines l on l.sale_id = sl.sale_id and l.line_no = sl.line_no;
  insert into public.sale_tenders (business_id, store_id, sale_id, kind, amount, tendered, change)
  select v_business, s.store_id, s.id, x.tender, s.total, s.tendered_total, s.change_total
    from public.sales s join seed_pos_sales x on x.id = s.id;

  -- Restock before the period where the sales would take a shelf below zero, then the sales, as ledger rows.
  insert into public.stock_movements (business_id, store_id, variant_id, kind, qty, unit_cost, occurred_at,
                                      recorded_at, reference_type, note)
  select v_business, t.store_id, t.variant_id, 'receive', t.sold - coalesce(b.qty, 0) + 24, i.cost,
         current_date - 22, current_date - 22, 'import', 'restock before the demo sales'
    from (select store_id, variant_id, sum(qty) as sold from seed_pos_lines group by 1, 2) t
    join seed_pos_items i on i.variant_id = t.variant_id
    left join public.stock_balances b on b.store_id = t.store_id and b.variant_id = t.variant_id and b.lot_id is null
   where coalesce(b.qty, 0) - t.sold < 4;
  insert into public.stock_movements (business_id, store_id, variant_id, kind, qty, unit_cost, occurred_at,
                                      recorded_at, actor_id, reference_type, reference_id, note)
  select v_business, l.store_id, l.variant_id, 'sale', -l.qty, l.cost, s.occurred_at, s.occurred_at, v_owner, 'sale',
         s.id, s.receipt_number
    from seed_pos_lines l join public.sales s on s.id = l.sale_id;
  -- Balances: the sum of the ledger for every (store, variant) these movements touched.
  insert into public.stock_balances as b (business_id, store_id, variant_id, lot_id, qty)
  select v_business, m.store_id, m.variant_id, null, sum(m.qty)
    from public.stock_movements m
   where m.business_id = v_business and m.lot_id is null
     and (m.store_id, m.variant_id) in (select store_id, variant_id from seed_pos_lines)
   group by m.store_id, m.variant_id
  on conflict (store_id, variant_id, lot_id) do update set qty = excluded.qty, updated_at = now();

  -- Close every shift: expected cash, counted by denomination, a small difference on some days.
  update public.shifts sh
     set expected_cash = e.expected,
         counted_total = e.expected + d.diff, difference = d.diff,
         counted = jsonb_build_object('2000', (e.expected + d.diff) / 2000, '1', (e.expected + d.diff) % 2000)
    from seed_pos_shifts s
    cross join lateral (select s.opening_float + coalesce(sum(t.amount), 0) as expected
                          from public.sale_tenders t join public.sales x on x.id = t.sale_id
                         where x.shift_id = s.id and t.kind = 'cash') e
    cross join lateral (select case abs(hashtext(s.id::text)) % 7 when 0 then -500 when 1 then 100 else 0 end::bigint as diff) d
   where sh.id = s.id;

  insert into public.activity (business_id, store_id, actor_id, kind, entity_type, entity_id, after, at)
  select v_business, s.store_id, v_owner, 'shift.closed', 'shift', s.id,
         jsonb_build_object('expected_cash', sh.expected_cash, 'counted_total', sh.counted_total,
                            'difference', sh.difference, 'sales', s.sales), s.closed_at
    from seed_pos_shifts s join public.shifts sh on sh.id = s.id;

  -- Each close froze its Z report (close_shift does this for a register; ADR 0171).
  update public.shifts sh set z_figures = private.shift_figures(sh.id), close_recorded_at = sh.closed_at
    from seed_pos_shifts s where sh.id = s.id;
end;
$$;
-- End of the point of sale section (H-pos).

-- ---------------------------------------------------------------------------------------------------
-- Back-office life at owner1's Fresh Corner Market, written through the same audited functions the screens
-- call (so the ledger, balances and activity trail are exactly what the app would have written): two refunds,
-- a transfer Downtown -> Riverside received with one damaged unit, a stock count with variances, damaged
-- stock written off, Riverside price overrides, and a reply from support to owner1's ticket. The functions
-- check the caller's role, so this part acts as owner1 (then the admin) through request.jwt.claims.
do $$
declare
  v_downtown uuid := '5a000000-0000-4000-8000-000000000001';
  v_riverside uuid := '5a000000-0000-4000-8000-000000000002';
  v_sale record;
  v_transfer uuid;
  v_ticket uuid;
  v_answered timestamptz;
  v_items uuid[];
begin
  perform set_config('request.jwt.claims',
    '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}', true);

  -- Refunds of a whole line (an item sold by weight may be 0.5 kg): the newest two-line sale at Downtown, back
  -- to the shelf; an older Riverside sale's line, damaged. Each was rung in its sale's shift from the register's
  -- offline outbox and arrived after that shift closed: the Z report shows it apart ("after close") and the owner
  -- finds it under Reports > To review.
  select s.id, s.occurred_at, s.shift_id, sh.closed_at, l.id as line, l.qty
    into v_sale
    from public.sales s
    join public.shifts sh on sh.id = s.shift_id
    join lateral (select l.id, l.qty from public.sale_lines l where l.sale_id = s.id order by l.line_no limit 1) l on true
   where s.store_id = v_downtown
     and (select count(*) from public.sale_lines x where x.sale_id = s.id) >= 2
   order by s.occurred_at desc limit 1;
  perform public.post_refund(jsonb_build_object('id', gen_random_uuid(), 'sale_id', v_sale.id,
    'reason', 'Customer changed their mind', 'shift_id', v_sale.shift_id, 'offline', true,
    'occurred_at', least(v_sale.occurred_at + interval '2 hours', v_sale.closed_at - interval '1 minute'),
    'lines', jsonb_build_array(jsonb_build_object('sale_line_id', v_sale.line, 'qty', v_sale.qty, 'disposition', 'restock'))));
  select s.id, s.occurred_at, s.shift_id, sh.closed_at, l.id as line, l.qty
    into v_sale
    from public.sales s
    join public.shifts sh on sh.id = s.shift_id
    join lateral (select l.id, l.qty from public.sale_lines l where l.sale_id = s.id order by l.line_no limit 1) l on true
   where s.store_id = v_riverside and s.occurred_at < now() - interval '5 days'
   order by s.occurred_at desc limit 1;
  perform public.post_refund(jsonb_build_object('id', gen_random_uuid(), 'sale_id', v_sale.id,
    'reason', 'Damaged packaging', 'shift_id', v_sale.shift_id, 'offline', true,
    'occurred_at', least(v_sale.occurred_at + interval '1 hour', v_sale.closed_at - interval '1 minute'),
    'lines', jsonb_build_array(jsonb_build_object('sale_line_id', v_sale.line, 'qty', v_sale.qty, 'disposition', 'damaged'))));

  -- Five untracked-by-lot items Downtown holds most of: sent to Riverside, one unit arrives damaged.
  select array_agg(b.variant_id) into v_items from (
    select b.variant_id from public.stock_balances b
     where b.store_id = v_downtown and b.lot_id is null and b.qty >= 20
     order by b.qty desc, b.variant_id limit 5) b;
  v_transfer := public.send_transfer(v_downtown, v_riverside,
    (select jsonb_agg(jsonb_build_object('variant_id', v, 'qty', 6)) from unnest(v_items) v),
    'Weekend restock for Riverside');
  perform public.receive_transfer(v_transfer, jsonb_build_array(jsonb_build_object(
    'line_id', (select l.id from public.transfer_lines l where l.transfer_id = v_transfer and l.variant_id = v_items[1]),
    'received', 5, 'damaged', 1)));

  -- A shelf count at Riverside of three of them: one short, one over, one right.
  perform public.post_count(v_riverside, (
    select jsonb_agg(jsonb_build_object('variant_id', b.variant_id, 'counted', b.qty + d.delta))
      from unnest(v_items[2:4]) with ordinality as v (id, n)
      join public.stock_balances b on b.store_id = v_riverside and b.variant_id = v.id and b.lot_id is null
      cross join lateral (select (array[-2, 1, 0])[v.n] as delta) d));

  -- Breakage written off at Downtown.
  perform public.adjust_stock(v_downtown, v_items[5], -2, 'damaged', null, 'Dropped in the stockroom');

  -- Riverside charges a little more for three items (per-store price overrides).
  insert into public.store_prices (business_id, store_id, variant_id, price)
  select v.business_id, v_riverside, v.id, v.price + 20
    from public.variants v where v.id = any (v_items[1:3]);

  -- Two sales from Riverside's till while it had lost its connection: kept at the price it showed and flagged for
  -- the owner to review (Reports > To review), as post_sale does for an offline register.
  update public.sales s
     set offline = true, recorded_at = s.occurred_at + interval '3 hours', review_reasons = array['price_mismatch:1']
   where s.id in (select x.id from public.sales x where x.store_id = v_riverside and x.occurred_at < now() - interval '1 day'
                   order by x.occurred_at desc limit 2);

  -- Support answers owner1's in-progress ticket: the thread, the bell and the email outbox show it.
  perform set_config('request.jwt.claims',
    '{"sub":"11111111-1111-4111-8111-111111111111","role":"authenticated"}', true);
  select t.id, t.updated_at into v_ticket, v_answered from public.support_tickets t
   where t.user_id = '22222222-2222-4222-8222-222222222222' and t.status = 'in_progress' limit 1;
  if v_ticket is not null then
    perform public.admin_reply(v_ticket,
      'Thanks Olivia, we are on it: the scanner sends a tab after each code. Turn off "add suffix" in its '
      'settings and it will work with the register. We will check back tomorrow.');
    -- The answer was given when the ticket last changed (days ago) and the team is still on it, so the list keeps
    -- its order, dates and "In progress". The updated_at trigger is paused so it does not stamp now(); altering a
    -- trigger needs only table ownership, which the seed's role has on hosted too (the replica role needs superuser).
    alter table public.support_tickets disable trigger support_tickets_set_updated_at;
    update public.ticket_replies r set created_at = v_answered where r.ticket_id = v_ticket;
    update public.support_tickets t
       set status = 'in_progress', last_reply_at = v_answered, waiting_since = v_answered, updated_at = v_answered
     where t.id = v_ticket;
    alter table public.support_tickets enable trigger support_tickets_set_updated_at;
  end if;
  perform set_config('request.jwt.claims', '', true);
end;
$$;
-- End of the back-office section.

-- ---------------------------------------------------------------------------------------------------
-- Staff at owner1's Fresh Corner Market for the shared till (issue 25, ADR 0300, 0350): a manager and a cashier who
-- sign in with the demo passwords in the header and switch the till to themselves with their PINs (manager 4739,
-- cashier 5162; PINs such as 1234 are refused by the PIN rules). They joined as invited members do (no business of
-- their own), and owner1 set their PINs through set_staff_pin, as the Team page does.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change, email_change_token_current,
  phone_change, phone_change_token, reauthentication_token
)
select
  '00000000-0000-0000-0000-000000000000'::uuid, u.id, 'authenticated', 'authenticated', u.email,
  extensions.crypt(u.password, extensions.gen_salt('bf', 10)), u.created_at, null,
  '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('full_name', u.full_name, 'invited', true), u.created_at, u.created_at,
  '', '', '', '', '', '', '', ''
from (values
  ('55555555-5555-4555-8555-555555555555'::uuid, 'manager1@storewise.local', 'storewise-manager', 'Dana Manager',
   now() - interval '90 days'),
  ('66666666-6666-4666-8666-666666666666'::uuid, 'cashier1@storewise.local', 'storewise-cashier', 'Carlos Cashier',
   now() - interval '60 days')
) as u (id, email, password, full_name, created_at);

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id, u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
       'email', null, u.created_at, u.created_at
from auth.users u
where u.id in ('55555555-5555-4555-8555-555555555555', '66666666-6666-4666-8666-666666666666');

update public.profiles p set created_at = u.created_at
from auth.users u
where u.id = p.id and u.id in ('55555555-5555-4555-8555-555555555555', '66666666-6666-4666-8666-666666666666');

insert into public.business_members (business_id, user_id, role, all_stores, created_at)
select m.business_id, s.user_id, s.role::public.member_role, true, s.joined
  from public.business_members m
  cross join (values ('55555555-5555-4555-8555-555555555555'::uuid, 'manager', now() - interval '90 days'),
                     ('66666666-6666-4666-8666-666666666666'::uuid, 'cashier', now() - interval '60 days'))
       as s (user_id, role, joined)
 where m.user_id = '22222222-2222-4222-8222-222222222222' and m.role = 'owner';

do $$
declare
  v_business uuid := (select m.business_id from public.business_members m
                       where m.user_id = '22222222-2222-4222-8222-222222222222' and m.role = 'owner');
begin
  perform set_config('request.jwt.claims',
    '{"sub":"22222222-2222-4222-8222-222222222222","role":"authenticated"}', true);
  perform public.set_staff_pin(v_business, '55555555-5555-4555-8555-555555555555', '4739');
  perform public.set_staff_pin(v_business, '66666666-6666-4666-8666-666666666666', '5162');
  -- Foreign cash (ADR 0395): Fresh Corner's stores sell in dollars and take euros and Canadian dollars at the till.
  perform public.set_exchange_rate(v_business, 'EUR', 'USD', 1.0825);
  perform public.set_exchange_rate(v_business, 'CAD', 'USD', 0.7310);
  perform set_config('request.jwt.claims', '', true);
end;
$$;
-- End of the staff section.

-- ---------------------------------------------------------------------------------------------------
-- ==== Electronics demo (issue 29, the serials pack; ADR 0365) ====
-- owner4's Volt & Wire Electronics, one store in its own block so the other demo blocks merge around it: phones
-- tracked by IMEI (15 digits, Luhn check digit verified below) and earbuds by serial, with warranty months;
-- accessories without serials. A purchase order received 6 days ago names each unit (receive_serials on the
-- order); two closed shifts (5 and 2 days ago) sell four units and an accessory or two, and one phone comes back
-- (restocked: in stock again, and the serial lookup shows the sale and the return). Written through the audited
-- functions as owner4 (request.jwt.claims), offline-style with the times the register would send.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change, email_change_token_current,
  phone_change, phone_change_token, reauthentication_token
)
values (
  '00000000-0000-0000-0000-000000000000'::uuid, '77777777-7777-4777-8777-777777777777'::uuid, 'authenticated',
  'authenticated', 'owner4@storewise.local', extensions.crypt('storewise-owner', extensions.gen_salt('bf', 10)),
  now() - interval '75 days', null,
  '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('full_name', 'Eli Gadget', 'business_name', 'Volt & Wire Electronics', 'business_type', 'Electronics',
                     'phone', '+1 555 010 0104', 'business_email', 'shop@voltandwire.example'),
  now() - interval '75 days', now() - interval '75 days', '', '', '', '', '', '', '', ''
);
insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id, u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
       'email', null, u.created_at, u.created_at
  from auth.users u where u.id = '77777777-7777-4777-8777-777777777777';
update public.profiles p set created_at = now() - interval '75 days' where p.id = '77777777-7777-4777-8777-777777777777';

do $$
declare
  v_owner uuid := '77777777-7777-4777-8777-777777777777';
  v_business uuid := (select b.id from public.businesses b where b.owner_id = '77777777-7777-4777-8777-777777777777');
  v_store uuid := '5a000000-0000-4000-8000-000000000040';
  v_register uuid;
  v_supplier uuid;
  v_po uuid;
  v_shift uuid;
  v_day timestamptz;
  v_sale jsonb;
  v_returned jsonb;
  v_imeis text[] := array['354672110200019', '354672110200027', '354672110200035', '354672110200043',
                          '354673110300015', '354673110300023', '354673110300031',
                          '358124100400015', '358124100400023', '358124100400031'];
begin
  if exists (select 1 from unnest(v_imeis) i where not private.imei_is_valid(i)) then
    raise exception 'the Electronics demo has an IMEI whose Luhn check digit is wrong';
  end if;

  insert into public.stores (id, business_id, name, address, phone, time_zone, currency, tax_inclusive, default_tax_rate,
                             receipt_header, receipt_footer, created_at)
  values (v_store, v_business, 'Volt & Wire Main Street', '88 Main Street, Springfield', '+1 555 010 0204',
          'America/New_York', 'USD', true, 8.875, 'Volt & Wire Electronics',
          'Keep this receipt: it is your warranty. Returns within 14 days.', now() - interval '70 days');
  insert into public.registers (business_id, store_id, name, receipt_prefix, created_at)
  values (v_business, v_store, 'Counter', 'VW1', now() - interval '70 days')
  returning id into v_register;

  insert into public.categories (business_id, name) values (v_business, 'Phones'), (v_business, 'Audio'), (v_business, 'Accessories');
  insert into public.products (business_id, name, category_id, brand, serial_tracking, warranty_months, created_at)
  select v_business, p.name, c.id, p.brand, p.tracking, p.months, now() - interval '70 days'
    from (values ('Nova X 128 GB', 'Phones', 'Nova', 'imei', 24), ('Nova X Pro 256 GB', 'Phones', 'Nova', 'imei', 24),
                 ('Pixelon 8a', 'Phones', 'Pixelon', 'imei', 12), ('AirTune Earbuds', 'Audio', 'AirTune', 'serial', 12),
                 ('USB-C Cable 1 m', 'Accessories', 'Volt', null, null), ('Fast Charger 30 W', 'Accessories', 'Volt', null, null),
                 ('Screen Protector', 'Accessories', 'Volt', null, null))
         as p (name, category, brand, tracking, months)
    join public.categories c on c.business_id = v_business and c.name = p.category;
  insert into public.variants (business_id, product_id, sku, price, created_at)
  select v_business, p.id, x.sku, x.price, p.created_at
    from (values ('Nova X 128 GB', 'NOVA-X-128', 69900), ('Nova X Pro 256 GB', 'NOVA-XP-256', 99900),
                 ('Pixelon 8a', 'PIX-8A', 49900), ('AirTune Earbuds', 'AIRTUNE', 12900),
                 ('USB-C Cable 1 m', 'CBL-USBC-1M', 1900), ('Fast Charger 30 W', 'CHG-30W', 2900),
                 ('Screen Protector', 'SCR-PROT', 1500))
         as x (name, sku, price)
    join public.products p on p.business_id = v_business and p.name = x.name;
  insert into public.variant_costs (variant_id, business_id, cost)
  select v.id, v_business, round(v.price * 0.7) from public.variants v where v.business_id = v_business;
  -- EAN-13 under the GS1 example prefix 0614141, so a DataMatrix (01)00614141... finds the item.
  insert into public.barcodes (business_id, variant_id, code, kind)
  select v_business, x.id, x.body || private.gtin_check_digit(x.body)::text, 'ean13'
    from (select v.id, '0614141' || lpad((row_number() over (order by v.sku))::text, 5, '0') as body
            from public.variants v where v.business_id = v_business) x;

  insert into public.suppliers (business_id, name, contact_name, email, phone)
  values (v_business, 'Pacific Devices', 'Rosa Chen', 'orders@pacificdevices.example', '+1 555 010 0301')
  returning id into v_supplier;

  perform set_config('request.jwt.claims', '{"sub":"77777777-7777-4777-8777-777777777777","role":"authenticated"}', true);

  -- The opening order: phones and earbuds by the unit, accessories by the box; ordered, received 6 days ago (a stock entry is dated within the last 7 days).
  v_po := public.create_purchase_order(v_store, v_supplier, (
    select jsonb_agg(jsonb_build_object('variant_id', v.id, 'qty', q.qty, 'unit_cost', round(v.price * 0.7)))
      from (values ('NOVA-X-128', 4), ('NOVA-XP-256', 3), ('PIX-8A', 3), ('AIRTUNE', 4), ('CBL-USBC-1M', 40),
                   ('CHG-30W', 25), ('SCR-PROT', 30)) as q (sku, qty)
      join public.variants v on v.business_id = v_business and v.sku = q.sku), 'Opening stock', null);
  update public.purchase_orders set status = 'ordered' where id = v_po;
  perform public.receive_purchase_order(v_po, (
    select jsonb_agg(jsonb_build_object('line_id', l.id, 'qty', l.qty_ordered))
      from public.purchase_order_lines l where l.purchase_order_id = v_po), now() - interval '6 days');
  perform public.receive_serials(v_store, v.id, s.serials, v_po)
     from (values ('NOVA-X-128', v_imeis[1:4]), ('NOVA-XP-256', v_imeis[5:7]), ('PIX-8A', v_imeis[8:10]),
                  ('AIRTUNE', array['AT-2611-0001', 'AT-2611-0002', 'AT-2611-0003', 'AT-2611-0004'])) as s (sku, serials)
     join public.variants v on v.business_id = v_business and v.sku = s.sku;
  update public.serial_numbers n set received_at = now() - interval '6 days' where n.business_id = v_business;

  insert into public.customers (business_id, name, phone, email)
  values (v_business, 'Sam Rivera', '+1 555 010 1101', 'sam.rivera@example.com'),
         (v_business, 'Grace Okafor', '+1 555 010 1102', null),
         (v_business, 'Ken Ito', null, 'ken.ito@example.com'),
         (v_business, 'Ana Silva', '+1 555 010 1104', null);

  -- Two days of trading, each a shift of eight hours with the sales the register sent (times as it recorded them).
  for v_day in select now() - d * interval '1 day' from unnest(array[5, 2]) d loop
    v_shift := gen_random_uuid();
    perform public.open_shift(v_shift, v_register, 0, v_day, true);
    for v_sale in
      select jsonb_build_object('id', gen_random_uuid(), 'register_id', v_register, 'shift_id', v_shift, 'offline', true,
               'occurred_at', v_day + x.at,
               'customer_id', (select c.id from public.customers c where c.business_id = v_business and c.name = x.customer),
               'lines', (select jsonb_agg(jsonb_build_object('variant_id', v.id, 'qty', 1)
                                          || case when l.e ? 'serial' then jsonb_build_object('serial', l.e ->> 'serial') else '{}'::jsonb end
                                          order by l.n)
                           from jsonb_array_elements(x.lines) with ordinality as l (e, n)
                           join public.variants v on v.business_id = v_business and v.sku = l.e ->> 'sku'),
               'tenders', jsonb_build_array(jsonb_build_object('kind', 'card', 'amount',
                  (select sum(v.price) from jsonb_to_recordset(x.lines) as l (sku text)
                     join public.variants v on v.business_id = v_business and v.sku = l.sku))))
        from (values
          (5, interval '1 hour', 'Sam Rivera', jsonb_build_array(jsonb_build_object('sku', 'NOVA-X-128', 'serial', v_imeis[1]),
                                                                 jsonb_build_object('sku', 'CBL-USBC-1M'))),
          (5, interval '3 hours', 'Grace Okafor', jsonb_build_array(jsonb_build_object('sku', 'PIX-8A', 'serial', v_imeis[8]),
                                                                    jsonb_build_object('sku', 'CHG-30W'))),
          (5, interval '6 hours', 'Ken Ito', jsonb_build_array(jsonb_build_object('sku', 'NOVA-X-128', 'serial', v_imeis[2]))),
          (2, interval '2 hours', 'Ana Silva', jsonb_build_array(jsonb_build_object('sku', 'NOVA-XP-256', 'serial', v_imeis[5]),
                                                                 jsonb_build_object('sku', 'SCR-PROT'))),
          (2, interval '4 hours', null, jsonb_build_array(jsonb_build_object('sku', 'AIRTUNE', 'serial', 'AT-2611-0001'))))
        as x (days_ago, at, customer, lines)
       where v_day = now() - x.days_ago * interval '1 day'
    loop
      perform public.post_sale(v_sale);
    end loop;
    -- Ken Ito brings his Nova X back unopened within the 14 days: refunded, back on the shelf.
    if v_day = now() - interval '2 days' then
      select jsonb_build_object('sale_id', ss.sale_id, 'line_id', ss.sale_line_id) into v_returned
        from public.sale_line_serials ss where ss.business_id = v_business and ss.serial = v_imeis[2];
      perform public.post_refund(jsonb_build_object('id', gen_random_uuid(), 'sale_id', v_returned ->> 'sale_id',
        'shift_id', v_shift, 'offline', true, 'occurred_at', v_day + interval '5 hours', 'reason', 'Returned unopened',
        'lines', jsonb_build_array(jsonb_build_object('sale_line_id', v_returned ->> 'line_id', 'qty', 1, 'disposition', 'restock'))));
    end if;
    perform public.close_shift(v_shift, '{}'::jsonb, gen_random_uuid(), v_day + interval '8 hours');
  end loop;
  perform set_config('request.jwt.claims', '', true);
end;
$$;
-- End of the Electronics demo.

-- ==== Pharmacy demo (issue 29, the prescriptions pack, ADR 0390; cash rounding and foreign cash, ADR 0415) ====
-- owner5's Riverbend Pharmacy (Medical: lots and prescriptions packs), one store in its own block: over-the-counter
-- medicines, prescription-only ones, and two controlled ones whose register (Inventory > Controlled register) shows
-- the stock received 6 days ago and the sales made on prescriptions in a closed shift 3 days ago, one returned.
-- The pharmacy is in Ontario: it sells in Canadian dollars, rounds cash to 0.05 (Canada has no cent coin; a card
-- pays exact, ADR 0251) and takes US dollars in cash at the rate its owner set (ADR 0395): 1.38 from 30 days ago,
-- 1.39 from today on. The shift's cash sales carry their rounding as the register sends it (11.97 paid 11.95 in
-- cash; 5.49 paid with a US$5 note, 5.50 of it, 1.40 change in Canadian dollars) and one prescription is paid
-- partly with a US$20 note; the close counts the Canadian cash and the US$25 and balances (Z report: cash rounding
-- -0.01, USD expected and counted 25.00).
-- Written through the audited functions as owner5 (request.jwt.claims), offline-style with the register's times.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change, email_change_token_current,
  phone_change, phone_change_token, reauthentication_token
)
values (
  '00000000-0000-0000-0000-000000000000'::uuid, '88888888-8888-4888-8888-888888888888'::uuid, 'authenticated',
  'authenticated', 'owner5@storewise.local', extensions.crypt('storewise-owner', extensions.gen_salt('bf', 10)),
  now() - interval '60 days', null,
  '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('full_name', 'Noor Chemist', 'business_name', 'Riverbend Pharmacy', 'business_type', 'Medical',
                     'phone', '+1 519 555 0105', 'business_email', 'care@riverbend.example'),
  now() - interval '60 days', now() - interval '60 days', '', '', '', '', '', '', '', ''
);
insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id, u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
       'email', null, u.created_at, u.created_at
  from auth.users u where u.id = '88888888-8888-4888-8888-888888888888';
update public.profiles p set created_at = now() - interval '60 days' where p.id = '88888888-8888-4888-8888-888888888888';

do $$
declare
  v_business uuid := (select b.id from public.businesses b where b.owner_id = '88888888-8888-4888-8888-888888888888');
  v_store uuid := '5a000000-0000-4000-8000-000000000050';
  v_register uuid;
  v_shift uuid := gen_random_uuid();
  v_day timestamptz := now() - interval '3 days';
  v_sale jsonb;
  v_returned uuid;
  v_usd_then public.exchange_rates;
  v_close jsonb;
begin
  insert into public.stores (id, business_id, name, address, phone, time_zone, currency, tax_inclusive, default_tax_rate,
                             receipt_header, receipt_footer, created_at, cash_rounding_step)
  values (v_store, v_business, 'Riverbend High Street', '12 High Street, Riverbend, ON N0B 2K0', '+1 519 555 0150',
          'America/Toronto', 'CAD', true, 0, 'Riverbend Pharmacy', 'Ask your pharmacist before taking any medicine.',
          now() - interval '55 days', 5);
  insert into public.registers (business_id, store_id, name, receipt_prefix, created_at)
  values (v_business, v_store, 'Dispensary', 'RB1', now() - interval '55 days')
  returning id into v_register;

  insert into public.categories (business_id, name) values (v_business, 'Over the counter'), (v_business, 'Prescription');
  insert into public.products (business_id, name, category_id, prescription_only, controlled, created_at)
  select v_business, p.name, c.id, p.rx, p.controlled, now() - interval '55 days'
    from (values ('Paracetamol 500 mg, 16 tablets', 'Over the counter', false, false),
                 ('Ibuprofen 200 mg, 24 tablets', 'Over the counter', false, false),
                 ('Amoxicillin 500 mg, 21 capsules', 'Prescription', true, false),
                 ('Oxycodone 5 mg, 28 tablets', 'Prescription', true, true),
                 ('Morphine sulfate 10 mg/5 ml, 100 ml', 'Prescription', true, true))
         as p (name, category, rx, controlled)
    join public.categories c on c.business_id = v_business and c.name = p.category;
  insert into public.variants (business_id, product_id, sku, price, created_at)
  select v_business, p.id, x.sku, x.price, p.created_at
    from (values ('Paracetamol 500 mg, 16 tablets', 'PARA-500', 399), ('Ibuprofen 200 mg, 24 tablets', 'IBU-200', 549),
                 ('Amoxicillin 500 mg, 21 capsules', 'AMOX-500', 1250), ('Oxycodone 5 mg, 28 tablets', 'OXY-5', 2400),
                 ('Morphine sulfate 10 mg/5 ml, 100 ml', 'MORPH-10', 1890))
         as x (name, sku, price)
    join public.products p on p.business_id = v_business and p.name = x.name;
  insert into public.variant_costs (variant_id, business_id, cost)
  select v.id, v_business, round(v.price * 0.6) from public.variants v where v.business_id = v_business;
  insert into public.barcodes (business_id, variant_id, code, kind)
  select v_business, x.id, x.body || private.gtin_check_digit(x.body)::text, 'ean13'
    from (select v.id, '0614142' || lpad((row_number() over (order by v.sku))::text, 5, '0') as body
            from public.variants v where v.business_id = v_business) x;

  perform set_config('request.jwt.claims', '{"sub":"88888888-8888-4888-8888-888888888888","role":"authenticated"}', true);
  perform public.receive_stock(v_store, v.id, q.qty, round(v.price * 0.6)::bigint, null, null, now() - interval '6 days', 'Opening delivery')
     from (values ('PARA-500', 40), ('IBU-200', 40), ('AMOX-500', 20), ('OXY-5', 30), ('MORPH-10', 12)) as q (sku, qty)
     join public.variants v on v.business_id = v_business and v.sku = q.sku;

  -- US dollars in cash (ADR 0395). The rate the shift 3 days ago sold at was set 30 days ago: set_exchange_rate
  -- never starts a rate in the past (a past sale cannot be made to match a rate set after it), so the seed writes
  -- that row as history, dated then, as owner5 (created_by and the trail name her; the append-only trail dates its
  -- line at the seeding). Today's rate goes through the function.
  insert into public.exchange_rates (business_id, currency, base_currency, rate, effective_from, created_at)
  values (v_business, 'USD', 'CAD', 1.38, now() - interval '30 days', now() - interval '30 days')
  returning * into v_usd_then;
  perform public.set_exchange_rate(v_business, 'USD', 'CAD', 1.39);

  perform public.open_shift(v_shift, v_register, 10000, v_day, true);
  -- Each sale's tenders as the register sends them (shared/features/pos/cart.ts, foreign-tender.ts) at a cash step
  -- of 5: cash pays what is left rounded to 0.05 (11.97 -> 11.95; 5.49 -> 5.50), a card pays exact, and a US note
  -- pays at most what is left for cash, its value (floor(cents x 1.38)) over that being change in Canadian dollars
  -- rounded down to 0.05. post_sale checks every figure (private.sale_cash_rounding, sale_foreign_cash_checked).
  for v_sale in
    select jsonb_build_object('id', gen_random_uuid(), 'register_id', v_register, 'shift_id', v_shift, 'offline', true,
             'occurred_at', v_day + x.at,
             'lines', jsonb_build_array(jsonb_build_object('variant_id', v.id, 'qty', x.qty)
                        || case when x.number is null then '{}'::jsonb else jsonb_build_object('prescription', jsonb_build_object(
                             'prescriber', x.prescriber, 'number', x.number, 'written_on', to_char(v_day - interval '2 days', 'YYYY-MM-DD'),
                             'refills_authorised', x.authorised, 'refills_remaining', x.remaining)) end),
             'tenders', x.tenders)
      from (values (interval '1 hour', 'PARA-500', 3, null, null, null, null,
                    -- 3 x 3.99 = 11.97, paid 11.95 in cash (rounding -0.02) from a 20: 8.05 change.
                    jsonb_build_array(jsonb_build_object('kind', 'cash', 'amount', 1195, 'tendered', 2000))),
                   (interval '2 hours', 'AMOX-500', 1, 'Dr. Ana Ruiz', 'RX-104211', 0, 0,
                    jsonb_build_array(jsonb_build_object('kind', 'card', 'amount', 1250))),
                   (interval '3 hours', 'OXY-5', 1, 'Dr. Ben Okafor', 'RX-104230', 2, 2,
                    jsonb_build_array(jsonb_build_object('kind', 'card', 'amount', 2400))),
                   (interval '5 hours', 'MORPH-10', 1, 'Dr. Ben Okafor', 'RX-104236', 0, 0,
                    jsonb_build_array(jsonb_build_object('kind', 'card', 'amount', 1890))),
                   (interval '6 hours', 'OXY-5', 2, 'Dr. Chloe Martin', 'RX-104251', 1, 0,
                    -- 48.00: a US$20 note is worth 27.60 (no change: it pays less than the total), the rest by card.
                    jsonb_build_array(jsonb_build_object('kind', 'cash', 'amount', 2760, 'tendered', 2760, 'currency', 'USD',
                                        'rate_id', v_usd_then.id, 'rate', '1.38', 'foreign_tendered', 2000),
                                      jsonb_build_object('kind', 'card', 'amount', 2040))),
                   (interval '6 hours 30 minutes', 'IBU-200', 1, null, null, null, null,
                    -- 5.49 rounds to 5.50 in cash (+0.01); a US$5 note is worth 6.90: 1.40 change in Canadian dollars.
                    jsonb_build_array(jsonb_build_object('kind', 'cash', 'amount', 550, 'tendered', 690, 'currency', 'USD',
                                        'rate_id', v_usd_then.id, 'rate', '1.38', 'foreign_tendered', 500))))
           as x (at, sku, qty, prescriber, number, authorised, remaining, tenders)
      join public.variants v on v.business_id = v_business and v.sku = x.sku
     order by x.at
  loop
    perform public.post_sale(v_sale);
  end loop;
  -- The morphine comes back unopened: refunded (no prescription is needed to take it back) and restocked.
  select sl.id into v_returned from public.sale_line_prescriptions rx join public.sale_lines sl on sl.id = rx.sale_line_id
   where rx.business_id = v_business and rx.prescription_number = 'RX-104236';
  perform public.post_refund(jsonb_build_object('id', gen_random_uuid(),
    'sale_id', (select sl.sale_id from public.sale_lines sl where sl.id = v_returned), 'shift_id', v_shift, 'offline', true,
    'occurred_at', v_day + interval '7 hours', 'reason', 'Returned unopened',
    'lines', jsonb_build_array(jsonb_build_object('sale_line_id', v_returned, 'qty', 1, 'disposition', 'restock'))));
  -- The close counts the drawer per currency: 100.00 float + 11.95 cash - 1.40 change given for US cash = 110.55
  -- Canadian (a 50, two 20s, a 10, five toonies, two quarters, a nickel) and the US$25.00 handed over.
  v_close := public.close_shift(v_shift, '{"5000": 1, "2000": 2, "1000": 1, "200": 5, "25": 2, "5": 1, "foreign": {"USD": 2500}}'::jsonb,
                                gen_random_uuid(), v_day + interval '8 hours');
  if (v_close ->> 'difference')::bigint <> 0 or v_close #>> '{foreign_cash,0,difference}' <> '0' then
    raise exception 'the Riverbend demo close does not balance: %', v_close;
  end if;
  perform set_config('request.jwt.claims', '', true);
end;
$$;
-- End of the Pharmacy demo.

-- ==== Clothing demo (issue 29, the size grid pack; ADR 0340, 0411) ====
-- owner2's Thread & Needle (Clothing: the size_grid pack), one store (Thread & Needle Studio, Leeds, GBP, prices
-- including 20 % VAT) and its register TN1, in its own block like the Electronics and Pharmacy ones. Three styles made
-- through the grid (option 1 Size down, option 2 Colour across, SKU STYLE-COLOUR-SIZE as shared/lib/size-grid.ts
-- makes them): a tee in S/M/L/XL x White/Navy/Sage, chinos by waist, a merino knit in S/M/L x two colours. 22 sellable
-- items: within the Starter trial's 100 and within Free's 25 too, so the shop is not over its limit when the trial ends.
-- Two collections named by the season of today's date (in December: AW26 running, SS26 past): the tee is the spring
-- and summer line, the chinos and the knit the autumn and winter one. The season's delivery came on a purchase order
-- 24 days ago, a top-up of the knit 4 days ago; three weeks of trading (Monday to Saturday) in closed shifts on TN1,
-- one knit returned; then, today, the past season's leftovers marked down 30 % (markdown_collection). Written through
-- the audited functions as owner2 (request.jwt.claims), offline-style with the times the register would send, so
-- Reports > Collections shows real sell-through and the trail shows the markdown.
do $$
declare
  v_claims text := '{"sub":"33333333-3333-4333-8333-333333333333","role":"authenticated"}';
  v_business uuid := (select b.id from public.businesses b where b.owner_id = '33333333-3333-4333-8333-333333333333');
  v_store uuid := '5a000000-0000-4000-8000-000000000003';
  v_register uuid := (select r.id from public.registers r where r.store_id = '5a000000-0000-4000-8000-000000000003'
                                                              and r.receipt_prefix = 'TN1');
  v_today date := (now() at time zone 'Europe/London')::date;
  v_year int;
  v_aw_start date;
  v_ss_start date;
  v_current text;
  v_past uuid;
  v_supplier uuid;
  v_po uuid;
  v_day record;
  v_shift uuid;
  v_sale jsonb;
  v_topped_up boolean := false;
  v_refunded boolean := false;
  v_expected bigint;
  v_returned record;
begin
  if v_register is null then
    raise exception 'the Clothing demo needs Thread & Needle Studio''s register TN1';
  end if;
  perform set_config('request.jwt.claims', v_claims, true);

  -- The seasons of today's date: autumn/winter runs September to February, spring/summer March to August.
  if extract(month from v_today) >= 9 or extract(month from v_today) <= 2 then
    v_year := extract(year from v_today)::int - case when extract(month from v_today) <= 2 then 1 else 0 end;
    v_aw_start := make_date(v_year, 9, 1);
    v_ss_start := make_date(v_year, 3, 1);
    v_current := 'AW';
  else
    v_year := extract(year from v_today)::int;
    v_ss_start := make_date(v_year, 3, 1);
    v_aw_start := make_date(v_year - 1, 9, 1);
    v_current := 'SS';
  end if;
  insert into public.collections (business_id, name, season_code, starts_on, ends_on)
  values (v_business, 'Autumn/Winter ' || extract(year from v_aw_start), 'AW' || to_char(v_aw_start, 'YY'), v_aw_start,
          (v_aw_start + interval '6 months')::date - 1),
         (v_business, 'Spring/Summer ' || extract(year from v_ss_start), 'SS' || to_char(v_ss_start, 'YY'), v_ss_start,
          (v_ss_start + interval '6 months')::date - 1);

  insert into public.categories (business_id, name)
  values (v_business, 'T-shirts'), (v_business, 'Trousers'), (v_business, 'Knitwear');
  insert into public.products (business_id, name, category_id, brand, option1_name, option2_name, collection_id,
                               created_at)
  select v_business, p.name, c.id, 'Thread & Needle', 'Size', 'Colour', k.id, now() - interval '28 days'
    from (values ('Organic Cotton Tee', 'T-shirts', 'SS'), ('Stretch Chinos', 'Trousers', 'AW'),
                 ('Merino Crew Knit', 'Knitwear', 'AW')) as p (name, category, season)
    join public.categories c on c.business_id = v_business and c.name = p.category
    join public.collections k on k.business_id = v_business and left(k.season_code, 2) = p.season;

  -- The grid: one variant per size and colour, SKU STYLE-COLOUR-SIZE; prices include VAT.
  insert into public.variants (business_id, product_id, option1, option2, sku, price, created_at)
  select v_business, p.id, s.size, c.colour,
         g.style || '-' || upper(left(c.colour, 3)) || '-' || s.size, g.price, p.created_at
    from (values ('Organic Cotton Tee', 'TEE', array['S', 'M', 'L', 'XL'], array['White', 'Navy', 'Sage'], 1800),
                 ('Stretch Chinos', 'CHINO', array['30', '32', '34', '36'], array['Stone'], 4500),
                 ('Merino Crew Knit', 'KNIT', array['S', 'M', 'L'], array['Charcoal', 'Oat'], 6500))
         as g (name, style, sizes, colours, price)
    join public.products p on p.business_id = v_business and p.name = g.name
    cross join lateral unnest(g.sizes) with ordinality as s (size, n)
    cross join lateral unnest(g.colours) with ordinality as c (colour, m)
   order by g.style, s.n, c.m;
  insert into public.barcodes (business_id, variant_id, code, kind)
  select v_business, x.id, x.body || private.gtin_check_digit(x.body)::text, 'ean13'
    from (select v.id, '0614143' || lpad((row_number() over (order by v.sku))::text, 5, '0') as body
            from public.variants v where v.business_id = v_business) x;

  insert into public.customers (business_id, name, phone, email)
  values (v_business, 'Hannah Price', '+44 113 496 0101', 'hannah.price@example.com'),
         (v_business, 'Tom Ashworth', '+44 113 496 0102', null),
         (v_business, 'Priya Shah', null, 'priya.shah@example.com');

  -- Each item's season, cost (the mill's price, without VAT) and role this season.
  create temporary table seed_tn_items on commit drop as
  select v.id as variant_id, v.sku, p.name as product, left(k.season_code, 2) = v_current as current,
         case left(v.sku, 3) when 'TEE' then 650 when 'CHI' then 1750 else 2600 end::bigint as cost
    from public.variants v
    join public.products p on p.id = v.product_id
    join public.collections k on k.id = p.collection_id
   where v.business_id = v_business;
  select k.id into v_past from public.collections k where k.business_id = v_business and left(k.season_code, 2) <> v_current;

  -- Three weeks of trading days (the studio is closed on Sundays), 2 to 4 sales a day of one or two items; about one
  -- item in four is from last season's line, which is why it is marked down at the end.
  create temporary table seed_tn_days on commit drop as
  select d.d, v_today - d.d as day, ((v_today - d.d) + time '09:30') at time zone 'Europe/London' as opened_at,
         ((v_today - d.d) + time '17:30') at time zone 'Europe/London' as closed_at, 2 + abs(hashtext('tn-n' || d.d)) % 3 as sales
    from generate_series(1, 21) as d (d)
   where extract(isodow from v_today - d.d) <> 7;
  create temporary table seed_tn_sales on commit drop as
  select x.d, k.k, x.opened_at + make_interval(mins => 30 + k.k * 420 / (x.sales + 1) + abs(hashtext('tn-m' || x.d || k.k)) % 25) as at,
         case when abs(hashtext('tn-c' || x.d || k.k)) % 5 = 0
              then (array['Hannah Price', 'Tom Ashworth', 'Priya Shah'])[1 + abs(hashtext('tn-w' || x.d || k.k)) % 3] end as customer,
         case when abs(hashtext('tn-t' || x.d || k.k)) % 3 = 0 then 'cash' else 'card' end as tender
    from seed_tn_days x cross join lateral generate_series(1, x.sales) as k (k);
  create temporary table seed_tn_lines on commit drop as
  select s.d, s.k, l.l as line_no,
         (select i.variant_id from seed_tn_items i where i.current = r.current order by i.sku
           offset abs(hashtext('tn-v' || s.d || s.k || l.l)) % (select count(*) from seed_tn_items j where j.current = r.current)
           limit 1) as variant_id
    from seed_tn_sales s
   cross join lateral generate_series(1, case when abs(hashtext('tn-l' || s.d || s.k)) % 4 = 0 then 2 else 1 end) as l (l)
   cross join lateral (select abs(hashtext('tn-r' || s.d || s.k || l.l)) % 100 >= 25 as current) r;

  insert into public.suppliers (business_id, name, contact_name, email, phone, notes)
  values (v_business, 'Pennine Mills', 'Ruth Holroyd', 'orders@penninemills.example', '+44 113 496 0300',
          'Knitwear and jersey; 10 working days')
  returning id into v_supplier;

  -- The season's delivery, ordered through the grid 26 days ago and received 24 days ago: what the three weeks sell
  -- and 3 to 6 of each cell left. A stock entry dated by a caller may be at most 7 days back (apply_movement), so this
  -- receipt is written as the database (no caller), as the Fresh Corner block writes its received order: the same
  -- steps as receive_purchase_order (average cost, ledger row, the line received, the order marked received).
  v_po := public.create_purchase_order(v_store, v_supplier, (
    select jsonb_agg(jsonb_build_object('variant_id', i.variant_id, 'unit_cost', i.cost,
             'qty', coalesce((select count(*) from seed_tn_lines l where l.variant_id = i.variant_id), 0)
                    + case when i.current then 3 else 4 end + abs(hashtext('tn-q' || i.sku)) % 3) order by i.sku)
      from seed_tn_items i), 'Season delivery: both collections, sizes by colours', null);
  update public.purchase_orders set status = 'ordered' where id = v_po;
  perform set_config('request.jwt.claims', '', true);
  perform private.update_average_cost(v_business, l.variant_id, l.qty_ordered, l.unit_cost),
          private.apply_movement(v_business, v_store, l.variant_id, null, 'receive', l.qty_ordered, null, l.unit_cost,
                                 ((v_today - 24) + time '10:00') at time zone 'Europe/London', 'purchase_order', v_po, null)
     from public.purchase_order_lines l where l.purchase_order_id = v_po;
  update public.purchase_order_lines set qty_received = qty_ordered where purchase_order_id = v_po;
  perform set_config('storewise.receiving', 'on', true);
  update public.purchase_orders set status = 'received' where id = v_po;
  perform set_config('storewise.receiving', '', true);
  perform set_config('request.jwt.claims', v_claims, true);

  for v_day in select * from seed_tn_days order by d desc loop
    -- Four days ago: the knit sold well, two colours of M and L topped up through the grid, received by receive_purchase_order.
    if not v_topped_up and v_day.d <= 4 then
      v_po := public.create_purchase_order(v_store, v_supplier, (
        select jsonb_agg(jsonb_build_object('variant_id', i.variant_id, 'qty', 3, 'unit_cost', i.cost) order by i.sku)
          from seed_tn_items i where i.sku in ('KNIT-CHA-M', 'KNIT-CHA-L', 'KNIT-OAT-M', 'KNIT-OAT-L')), 'Knit top-up', null);
      update public.purchase_orders set status = 'ordered' where id = v_po;
      perform public.receive_purchase_order(v_po, (
        select jsonb_agg(jsonb_build_object('line_id', l.id, 'qty', l.qty_ordered))
          from public.purchase_order_lines l where l.purchase_order_id = v_po), v_day.opened_at - interval '1 hour');
      v_topped_up := true;
    end if;

    v_shift := gen_random_uuid();
    perform public.open_shift(v_shift, v_register, 10000, v_day.opened_at, true);
    for v_sale in
      select jsonb_build_object('id', gen_random_uuid(), 'register_id', v_register, 'shift_id', v_shift, 'offline', true,
               'occurred_at', s.at,
               'customer_id', (select c.id from public.customers c where c.business_id = v_business and c.name = s.customer),
               'lines', (select jsonb_agg(jsonb_build_object('variant_id', l.variant_id, 'qty', 1) order by l.line_no)
                           from seed_tn_lines l where l.d = s.d and l.k = s.k),
               'tenders', jsonb_build_array(jsonb_build_object('kind', s.tender, 'amount', t.total)
                 || case when s.tender = 'cash' then jsonb_build_object('tendered', ceil(t.total / 500.0)::bigint * 500)
                         else '{}'::jsonb end))
        from seed_tn_sales s
        cross join lateral (select sum(v.price)::bigint as total from seed_tn_lines l join public.variants v on v.id = l.variant_id
                             where l.d = s.d and l.k = s.k) t
       where s.d = v_day.d
       order by s.at
    loop
      perform public.post_sale(v_sale);
    end loop;
    -- Three days ago: a knit bought the week before comes back unworn (the wrong size), back on the shelf.
    if not v_refunded and v_day.d <= 3 then
      select sl.sale_id, sl.id as line into v_returned
        from public.sale_lines sl join public.sales x on x.id = sl.sale_id join public.variants v on v.id = sl.variant_id
       where x.business_id = v_business and v.sku like 'KNIT-%' and x.occurred_at < v_day.opened_at - interval '4 days'
       order by x.occurred_at desc, sl.line_no limit 1;
      if v_returned.line is not null then
        perform public.post_refund(jsonb_build_object('id', gen_random_uuid(), 'sale_id', v_returned.sale_id,
          'shift_id', v_shift, 'offline', true, 'occurred_at', v_day.opened_at + interval '6 hours',
          'reason', 'Wrong size, returned unworn',
          'lines', jsonb_build_array(jsonb_build_object('sale_line_id', v_returned.line, 'qty', 1, 'disposition', 'restock'))));
        v_refunded := true;
      end if;
    end if;
    -- Closed with the drawer counted right: the float and the day's cash, in notes and coins (each denomination
    -- divides the one above it, so each count is what is left over from the larger ones).
    v_expected := (public.x_report(v_shift) ->> 'expected_cash')::bigint;
    perform public.close_shift(v_shift, (
      select jsonb_object_agg(c.denomination::text, c.n)
        from (select d.denomination, (v_expected % coalesce(lag(d.denomination) over (order by d.denomination desc), v_expected + 1))
                                     / d.denomination as n
                from unnest(array[2000, 1000, 500, 100, 50, 10, 5, 1]) as d (denomination)) c
       where c.n > 0), gen_random_uuid(), v_day.closed_at);
  end loop;

  -- This morning, before the register opens: last season's line 30 % off for the end-of-season sale. Done now, so the
  -- trail (append-only, dated by the database) shows it as today's: each price before and after, and the markdown.
  perform public.markdown_collection(v_past, 'percent', 30, true, false);
  perform set_config('request.jwt.claims', '', true);
end;
$$;
-- End of the Clothing demo.
