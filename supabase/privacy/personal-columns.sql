-- Every column of schemas public and private that points at a person: a foreign key to auth.users, public.profiles
-- or public.customers, or a uuid column named like one (actor_id, user_id...) without a key. Read by
-- tests/db/data-classification.test.ts against supabase/privacy/data-classification.ts.
select distinct n.nspname || '.' || c.relname || '.' || a.attname as column_name
  from pg_constraint k
  join pg_class c on c.oid = k.conrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_class r on r.oid = k.confrelid
  join pg_namespace rn on rn.oid = r.relnamespace
  cross join unnest(k.conkey) as ck(attnum)
  join pg_attribute a on a.attrelid = c.oid and a.attnum = ck.attnum
 where k.contype = 'f' and n.nspname in ('public', 'private')
   and (rn.nspname, r.relname) in (('auth', 'users'), ('public', 'profiles'), ('public', 'customers'))
   and a.attname <> 'business_id'
union
select n.nspname || '.' || c.relname || '.' || a.attname
  from pg_attribute a
  join pg_class c on c.oid = a.attrelid and c.relkind in ('r', 'p')
  join pg_namespace n on n.oid = c.relnamespace
 where n.nspname in ('public', 'private') and a.attnum > 0 and not a.attisdropped
   and a.atttypid = 'uuid'::regtype
   and a.attname ~ '^(user_id|actor_id|owner_id|cashier_id|customer_id|author_id|created_by|reviewed_by|approved_by|closed_by|opened_by|invited_by|accepted_by|assigned_admin|member_id|requested_by)$'
 order by 1;
