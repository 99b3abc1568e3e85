-- The business export leaves out the tables whose rows are one person's own (review of 20261202110000): RLS shows a
-- support ticket, a billing history entry or a payment method only to the person it belongs to (and the admins),
-- so the owner must not get other people's through the export either. Their own are in their personal data export
-- (export_my_personal_data). Ticket replies, notifications, sign-ins and sessions have no business_id and were
-- never exported.
create or replace function private.business_export_tables()
returns table (table_name text, key_columns text[])
language sql
stable
security definer
set search_path = ''
as $$
  select c.relname::text,
         (select array_agg(a.attname::text order by k.ord)
            from pg_catalog.pg_index i
            cross join unnest(i.indkey::int2[]) with ordinality as k (attnum, ord)
            join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
           where i.indrelid = c.oid and i.indisprimary)
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relkind in ('r', 'p')
     and (c.relname = 'businesses'
          or exists (select 1 from pg_catalog.pg_attribute a
                      where a.attrelid = c.oid and a.attname = 'business_id' and not a.attisdropped))
     -- One person's own rows (RLS: that person or an admin), never the business's.
     and c.relname not in ('support_tickets', 'billing_history', 'payment_methods')
   order by 1;
$$;
revoke all on function private.business_export_tables() from public;
