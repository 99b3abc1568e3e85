-- Customer CSV import (docs/adr/0370), shaped as the catalog import (ADR 0310): the customers.csv that the business
-- export and the Customers page write (name, email, phone) imports back. The email is the key: a row whose email is
-- a customer's of this business (case does not matter) updates that customer's name and phone (where several
-- customers share the email, only a row repeating one of them as it is passes, unchanged); a row without an
-- email matches a customer without one with the same name and phone (so an export re-imports as "nothing
-- changes"), else it creates. One comparison (private.customer_import_rows) serves the preview and the write; the
-- write is all or nothing for the whole file (at most 2,000 rows), through the customers' audit trigger. Owners and
-- managers only, in their own business: another business's customer is never read or written. Customers have no
-- plan limit. Erased customers (no email) are never updated.

create or replace function private.customer_import_rows(_business_id uuid, _rows jsonb, _first_row int)
returns table (row_index int, customer_id uuid, action text, changes jsonb, message text)
language sql
stable
security definer
set search_path = ''
as $$
  with r as (
    select (x.ord)::int + _first_row - 1 as n,
           nullif(btrim(coalesce(x.value ->> 'name', '')), '') as name,
           nullif(btrim(coalesce(x.value ->> 'email', '')), '') as email,
           nullif(btrim(coalesce(x.value ->> 'phone', '')), '') as phone
      from jsonb_array_elements(_rows) with ordinality as x (value, ord)
  ),
  -- The business's customers by email (lower case); several customers may share one, which an import cannot pick.
  e as (
    select lower(c.email::text) as key, array_agg(c.id order by c.created_at, c.id) as ids
      from public.customers c
     where c.business_id = _business_id and c.email is not null and c.erased_at is null
     group by 1
  ),
  k as (
    select r.*, e.ids, ex.id as exact_id,
           case when r.email is null then null else min(r.n) over (partition by lower(r.email)) end as first_email_row,
           coalesce(ex.id, case when cardinality(e.ids) = 1 then e.ids[1] end, ne.id) as match_id
      from r
      left join e on e.key = lower(r.email)
      -- The customer with this email that the row repeats as it is (name, and phone when given): an exported row
      -- even where several customers share the email.
      left join lateral (select c.id from public.customers c
                          where c.id = any (e.ids) and c.name::text = r.name and (r.phone is null or c.phone::text = r.phone)
                          order by c.created_at, c.id limit 1) ex on true
      -- Without an email: the customer without one whose name and phone are the row's (an exported row).
      left join lateral (select c.id from public.customers c
                          where c.business_id = _business_id and c.email is null and c.name::text = r.name
                            and c.phone::text is not distinct from r.phone
                          order by c.created_at, c.id limit 1) ne on r.email is null and r.name is not null
  ),
  checked as (
    select k.*, case
      when k.name is null then 'the name is missing'
      when char_length(k.name) not between 2 and 100 then 'the name must be 2 to 100 characters'
      when k.email is not null and (char_length(k.email) > 255 or k.email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$') then
        format('"%s" is not an email address', left(k.email, 60))
      when k.phone is not null and char_length(k.phone) not between 10 and 20 then
        'the phone number must be 10 to 20 characters'
      -- Rows sharing an email no customer has create one customer each (the export writes shared emails so); rows
      -- sharing a customer's email may not both change it.
      when k.first_email_row < k.n and k.exact_id is null and k.ids is not null then
        format('this email is also on row %s', k.first_email_row)
      when cardinality(k.ids) > 1 and k.exact_id is null then
        format('%s customers have this email: edit them on the Customers page, or leave the row out', cardinality(k.ids))
    end as message
      from k
  )
  select ch.n, ch.match_id,
         case when ch.message is not null then 'error' when ch.match_id is null then 'new'
              when d.changes = '{}'::jsonb then 'same' else 'update' end,
         coalesce(d.changes, '{}'::jsonb), ch.message
    from checked ch
    left join lateral (
      select coalesce(jsonb_object_agg(f.field, f.change), '{}'::jsonb) as changes
        from public.customers c
        cross join lateral (values
          ('name', case when ch.name <> c.name::text then jsonb_build_object('old', c.name, 'new', ch.name) end),
          -- An empty cell changes nothing (as in the catalog import).
          ('phone', case when ch.phone is not null and ch.phone is distinct from c.phone::text
                         then jsonb_build_object('old', c.phone, 'new', ch.phone) end)
        ) as f (field, change)
       where c.id = ch.match_id and f.change is not null) d on ch.match_id is not null
   order by ch.n;
$$;
comment on function private.customer_import_rows(uuid,jsonb,integer) is 'For each row of a customer file: the customer of the business it updates (by email, or by name and phone when the row has no email), its action (new, update, same, error), what it changes ({field: {old, new}}) and the row''s problem. Read by public.preview_customer_import and applied by public.import_customers.';
revoke all on function private.customer_import_rows(uuid,jsonb,integer) from public;

-- The arguments both calls check the same way.
create or replace function private.customer_import_args(_business_id uuid, _rows jsonb, _first_row int)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_role(_business_id, array['owner', 'manager']);
  if jsonb_typeof(_rows) is distinct from 'array' or jsonb_array_length(_rows) = 0 then
    raise exception 'the file has no rows' using errcode = '22023';
  end if;
  if jsonb_array_length(_rows) > 2000 then
    raise exception 'import at most 2,000 customers at once: split the file' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements(_rows) x where jsonb_typeof(x) <> 'object') then
    raise exception 'each row is an object of the file''s columns' using errcode = '22023';
  end if;
  if _first_row is null or _first_row < 1 or _first_row > 1000000 then
    raise exception 'the first row number must be between 1 and 1,000,000' using errcode = '22023';
  end if;
end;
$$;
revoke all on function private.customer_import_args(uuid,jsonb,integer) from public;

-- What a customer file would do: each row new, update (with its changes) or same, and each row's problem. Writes
-- nothing.
create or replace function public.preview_customer_import(_business_id uuid, _rows jsonb, _first_row int default 1)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.customer_import_args(_business_id, _rows, _first_row);
  return jsonb_build_object(
    'rows', coalesce((select jsonb_agg(jsonb_build_object('row_index', c.row_index, 'action', c.action, 'changes', c.changes)
                                       order by c.row_index)
                        from private.customer_import_rows(_business_id, _rows, _first_row) c where c.message is null), '[]'::jsonb),
    'problems', coalesce((select jsonb_agg(jsonb_build_object('row_index', c.row_index, 'message', c.message) order by c.row_index)
                            from private.customer_import_rows(_business_id, _rows, _first_row) c where c.message is not null), '[]'::jsonb));
end;
$$;
comment on function public.preview_customer_import(uuid,jsonb,integer) is 'Owners and managers: what a customer file (up to 2,000 rows of name, email, phone) would do in their business: each row new, update ({field: {old, new}}) or same, and each failing row''s message. Writes nothing.';
revoke all on function public.preview_customer_import(uuid,jsonb,integer) from public, anon;
grant execute on function public.preview_customer_import(uuid,jsonb,integer) to authenticated;

-- Imports a customer file, all or nothing: any row's problem returns every problem and writes nothing; otherwise
-- each new row is created and each update writes only what changes (the customers' audit trigger records each write
-- under the person importing).
create or replace function public.import_customers(_business_id uuid, _rows jsonb, _first_row int default 1)
returns table (row_index int, message text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_problems jsonb;
  r record;
  v_n int;
begin
  perform private.customer_import_args(_business_id, _rows, _first_row);
  select coalesce(jsonb_agg(jsonb_build_object('row', c.row_index, 'message', c.message) order by c.row_index), '[]'::jsonb)
    into v_problems
    from private.customer_import_rows(_business_id, _rows, _first_row) c where c.message is not null;
  if jsonb_array_length(v_problems) = 0 then
    begin
      for r in select c.*, x.value as v
                 from private.customer_import_rows(_business_id, _rows, _first_row) c
                 join jsonb_array_elements(_rows) with ordinality as x (value, ord) on (x.ord)::int + _first_row - 1 = c.row_index
                where c.action in ('new', 'update') order by c.row_index loop
        v_n := r.row_index;
        if r.action = 'new' then
          insert into public.customers (business_id, name, email, phone)
          values (_business_id, btrim(r.v ->> 'name'), nullif(btrim(coalesce(r.v ->> 'email', '')), ''),
                  nullif(btrim(coalesce(r.v ->> 'phone', '')), ''));
        else
          update public.customers c
             set name = case when r.changes ? 'name' then r.changes -> 'name' ->> 'new' else c.name end,
                 phone = case when r.changes ? 'phone' then r.changes -> 'phone' ->> 'new' else c.phone end
           where c.id = r.customer_id and c.business_id = _business_id and c.erased_at is null;
        end if;
      end loop;
    exception
      -- What the check could not see (a domain's rule, a change made meanwhile): nothing of the file is written.
      when check_violation or not_null_violation or string_data_right_truncation then
        v_problems := jsonb_build_array(jsonb_build_object('row', v_n, 'message', 'a value is not allowed here: ' || sqlerrm));
    end;
  end if;
  return query select (p ->> 'row')::int, p ->> 'message' from jsonb_array_elements(v_problems) p order by 1;
end;
$$;
comment on function public.import_customers(uuid,jsonb,integer) is 'Owners and managers import a customer file (up to 2,000 rows) into their business, all or nothing: rows whose email is a customer''s update its name and phone, other rows create (a row without an email that matches a customer without one by name and phone changes nothing). Returns each failing row''s message; nothing is written when there is one.';
revoke all on function public.import_customers(uuid,jsonb,integer) from public, anon;
grant execute on function public.import_customers(uuid,jsonb,integer) to authenticated;
