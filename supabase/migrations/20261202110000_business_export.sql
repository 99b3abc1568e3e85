-- Issue 26, what was left (docs/adr/0290):
-- * the owner's business export: begin_business_export (owner, aal2 when enrolled, written to the trail) records a
--   job with the row count of every business table; the business-export Edge Function (service role) reads the rows
--   page by page with business_export_rows / business_export_csv_rows, streams the ZIP to the exports bucket and
--   reports its progress, which the owner's screen polls with business_export_status;
-- * the erasure removes the business's uploads: a new step 'uploads' (before the tickets, whose attachments are
--   found through them) that only advances once Storage holds no object of the business any more; the function
--   removes them through the Storage API (hosted refuses direct deletes from storage.objects) and records each
--   bucket's count in the proof log;
-- * an owner whose businesses are all erased may delete their own login;
-- * the personal data export adds the caller's own trail entries.

-- ==== The export jobs =========================================================================================

create table private.business_exports (
  id uuid default gen_random_uuid() not null,
  business_id uuid not null,
  requested_by uuid not null,
  requested_at timestamp with time zone default now() not null,
  state text default 'building'::text not null,
  tables jsonb not null,
  rows_total bigint not null,
  rows_done bigint default 0 not null,
  object_name text,
  finished_at timestamp with time zone,
  constraint business_exports_pkey primary key (id),
  constraint business_exports_business_id_fkey foreign key (business_id) references public.businesses(id) on delete cascade,
  constraint business_exports_state_check check (state = any (array['building'::text, 'ready'::text, 'failed'::text])),
  constraint business_exports_rows_check check (rows_total >= 0 and rows_done >= 0),
  constraint business_exports_tables_check check (jsonb_typeof(tables) = 'array'),
  constraint business_exports_object_name_check check (object_name is null or object_name ~ '^[0-9a-f-]{36}/[A-Za-z0-9._-]{1,120}\.zip$')
);
alter table private.business_exports enable row level security;
comment on table private.business_exports is 'Business exports asked for by owners: the row counts of the manifest, the progress of the build and the ZIP''s name in the exports bucket. Read and written only by the export functions.';
comment on column private.business_exports.requested_by is 'The owner who asked (the trail has the same entry).';
create index business_exports_business_idx on private.business_exports (business_id, requested_at);

-- The tables of a business's export: every public table with a business_id (and businesses itself, by its id),
-- with the primary key the pages are read in. From the catalog, so a new business table is exported without a
-- change here (tests/local-stack/business-export-http.test.ts checks the list against the schema).
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
   order by 1;
$$;
revoke all on function private.business_export_tables() from public;

-- The owner asks for an export (aal2 when enrolled): one export at a time per business (a build older than an hour
-- is taken as failed). Counts the rows of every table for the manifest and the progress bar, writes the trail
-- entry, returns the job's id.
create or replace function public.begin_business_export(_business_id uuid)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_tables jsonb := '[]'::jsonb;
  v_total bigint := 0;
  v_rows bigint;
  v_id uuid;
  t record;
begin
  if (select auth.uid()) is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  if private.my_role(_business_id) is null then
    raise exception 'no such business' using errcode = 'P0002';
  end if;
  if private.my_role(_business_id) <> 'owner' then
    raise exception 'permission denied: only the owner exports the business' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  perform 1 from public.businesses b where b.id = _business_id for update;
  update private.business_exports e set state = 'failed', finished_at = now()
   where e.business_id = _business_id and e.state = 'building' and e.requested_at < now() - interval '1 hour';
  if exists (select 1 from private.business_exports e where e.business_id = _business_id and e.state = 'building') then
    raise exception 'an export of this business is being built: wait for it to finish' using errcode = 'P0001';
  end if;
  for t in select x.table_name from private.business_export_tables() x loop
    execute format('select count(*) from public.%I t where t.%I = $1', t.table_name,
                   case when t.table_name = 'businesses' then 'id' else 'business_id' end)
      into v_rows using _business_id;
    v_tables := v_tables || jsonb_build_array(jsonb_build_object('table', t.table_name, 'rows', v_rows));
    v_total := v_total + v_rows;
  end loop;
  insert into private.business_exports (business_id, requested_by, tables, rows_total)
  values (_business_id, (select auth.uid()), v_tables, v_total)
  returning id into v_id;
  perform private.log_activity(_business_id, null, 'business.exported', 'business', _business_id, null,
                               jsonb_build_object('export_id', v_id, 'rows', v_total));
  return v_id;
end;
$$;
revoke all on function public.begin_business_export(uuid) from public;
grant execute on function public.begin_business_export(uuid) to authenticated;

-- The job as the function builds it (service role): business, tables and counts, state.
create or replace function public.business_export_job(_export_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('id', e.id, 'business_id', e.business_id, 'business_name', b.name, 'requested_at', e.requested_at,
                            'state', e.state, 'tables', e.tables, 'rows_total', e.rows_total)
    from private.business_exports e join public.businesses b on b.id = e.business_id
   where e.id = _export_id;
$$;
revoke all on function public.business_export_job(uuid) from public;
grant execute on function public.business_export_job(uuid) to service_role;

-- One page of one table of a job's business (service role), in primary key order after _after (the last row of
-- the previous page, null for the first). Keyset paging: each page costs the same however deep the table is.
create or replace function public.business_export_rows(_export_id uuid, _table text, _after jsonb default null,
                                                       _limit integer default 1000)
returns setof jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
  v_keys text[];
  v_key_t text;
  v_key_r text;
begin
  if _limit is null or _limit not between 1 and 5000 then
    raise exception 'limit must be between 1 and 5000' using errcode = '22023';
  end if;
  select e.business_id into v_business from private.business_exports e where e.id = _export_id and e.state = 'building';
  if v_business is null then
    raise exception 'no export being built with this id' using errcode = 'P0002';
  end if;
  select x.key_columns into v_keys from private.business_export_tables() x where x.table_name = _table;
  if v_keys is null then
    raise exception 'not a table of the export' using errcode = '22023';
  end if;
  select string_agg(format('t.%I', k), ', '), string_agg(format('r.%I', k), ', ') into v_key_t, v_key_r from unnest(v_keys) k;
  return query execute format(
    'select to_jsonb(t) from public.%I t where t.%I = $1 %s order by %s limit $3',
    _table, case when _table = 'businesses' then 'id' else 'business_id' end,
    case when _after is null then ''
         else format('and (%s) > (select %s from jsonb_populate_record(null::public.%I, $2) r)', v_key_t, v_key_r, _table) end,
    v_key_t)
    using v_business, _after, _limit;
end;
$$;
revoke all on function public.business_export_rows(uuid, text, jsonb, integer) from public;
grant execute on function public.business_export_rows(uuid, text, jsonb, integer) to service_role;

-- One page of one of the export's CSV files (service role), as objects keyed by the CSV's columns (the column
-- lists are supabase/functions/_shared/export/csv-formats.ts, the catalog import's own). _after is the last row's
-- "key" (each row carries it). Money in minor units, quantities as numbers, as the import reads them.
-- products: every unarchived variant in the catalog import's columns; opening_qty is its stock in the business's
--   first store (the import puts opening stock in one store), so the file alone rebuilds catalog and stock there;
-- stock: every store's stock per variant (the stock page's columns and the store);
-- sales, customers: one row each.
create or replace function public.business_export_csv_rows(_export_id uuid, _file text, _after text default null,
                                                           _limit integer default 1000)
returns setof jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_business uuid;
  v_first_store uuid;
begin
  if _limit is null or _limit not between 1 and 5000 then
    raise exception 'limit must be between 1 and 5000' using errcode = '22023';
  end if;
  select e.business_id into v_business from private.business_exports e where e.id = _export_id and e.state = 'building';
  if v_business is null then
    raise exception 'no export being built with this id' using errcode = 'P0002';
  end if;
  if _file = 'products' then
    select s.id into v_first_store from public.stores s
     where s.business_id = v_business and s.archived_at is null order by s.created_at, s.id limit 1;
    return query
      select jsonb_build_object(
               'key', v.id::text, 'product_name', p.name, 'unit', p.unit, 'category', coalesce(c.name, ''),
               'brand', coalesce(p.brand, ''), 'option_name', concat_ws(' / ', p.option1_name, p.option2_name, p.option3_name),
               'option_value', concat_ws(' / ', v.option1, v.option2, v.option3), 'sku', v.sku, 'price', v.price,
               'cost', coalesce(vc.cost::text, ''),
               'barcode', coalesce((select b.code from public.barcodes b where b.variant_id = v.id order by b.created_at, b.code limit 1), ''),
               'opening_qty', coalesce((select nullif(greatest(sum(sb.qty), 0), 0)::text from public.stock_balances sb
                                         where sb.variant_id = v.id and sb.store_id = v_first_store), ''))
        from public.variants v
        join public.products p on p.id = v.product_id and p.archived_at is null
        left join public.categories c on c.id = p.category_id
        left join public.variant_costs vc on vc.variant_id = v.id
       where v.business_id = v_business and v.archived_at is null and (_after is null or v.id::text > _after)
       order by v.id::text
       limit _limit;
  elsif _file = 'stock' then
    return query
      select jsonb_build_object(
               'key', x.store_id::text || '/' || x.variant_id::text, 'store', s.name, 'sku', v.sku, 'product_name', p.name,
               'variant', concat_ws(' / ', v.option1, v.option2, v.option3), 'unit', p.unit, 'on_hand', x.qty,
               'reorder_point', coalesce(rp.reorder_point::text, ''), 'target_level', coalesce(rp.target_level::text, ''))
        from (select sb.store_id, sb.variant_id, sum(sb.qty) as qty from public.stock_balances sb
               where sb.business_id = v_business
                 and (_after is null or sb.store_id::text || '/' || sb.variant_id::text > _after)
               group by sb.store_id, sb.variant_id) x
        join public.stores s on s.id = x.store_id
        join public.variants v on v.id = x.variant_id
        join public.products p on p.id = v.product_id
        left join public.reorder_points rp on rp.store_id = x.store_id and rp.variant_id = x.variant_id
       order by x.store_id::text || '/' || x.variant_id::text
       limit _limit;
  elsif _file = 'sales' then
    return query
      select jsonb_build_object(
               'key', sa.id::text, 'receipt_number', sa.receipt_number, 'occurred_at', sa.occurred_at, 'store', st.name,
               'customer', coalesce(cu.name, ''), 'currency', sa.currency, 'subtotal', sa.subtotal,
               'discount_total', sa.discount_total, 'tax_total', sa.tax_total, 'cash_rounding', sa.cash_rounding,
               'total', sa.total, 'tendered_total', sa.tendered_total, 'change_total', sa.change_total)
        from public.sales sa
        join public.stores st on st.id = sa.store_id
        left join public.customers cu on cu.id = sa.customer_id
       where sa.business_id = v_business and (_after is null or sa.id::text > _after)
       order by sa.id::text
       limit _limit;
  elsif _file = 'customers' then
    return query
      select jsonb_build_object('key', cu.id::text, 'name', cu.name, 'email', coalesce(cu.email::text, ''),
                                'phone', coalesce(cu.phone::text, ''))
        from public.customers cu
       where cu.business_id = v_business and (_after is null or cu.id::text > _after)
       order by cu.id::text
       limit _limit;
  else
    raise exception 'the export''s CSV files are products, stock, sales and customers' using errcode = '22023';
  end if;
end;
$$;
revoke all on function public.business_export_csv_rows(uuid, text, text, integer) from public;
grant execute on function public.business_export_csv_rows(uuid, text, text, integer) to service_role;

-- The function reports progress while it writes (service role), and the end: ready with the ZIP's name, or failed.
create or replace function public.business_export_progress(_export_id uuid, _rows_done bigint, _state text default 'building',
                                                           _object_name text default null)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _state not in ('building', 'ready', 'failed') or _rows_done is null or _rows_done < 0 then
    raise exception 'state must be building, ready or failed, with the rows done' using errcode = '22023';
  end if;
  if _state = 'ready' and _object_name is null then
    raise exception 'a ready export names its file' using errcode = '22023';
  end if;
  update private.business_exports e
     set rows_done = least(_rows_done, e.rows_total), state = _state, object_name = coalesce(_object_name, e.object_name),
         finished_at = case when _state = 'building' then null else now() end
   where e.id = _export_id and e.state = 'building';
  if not found then
    raise exception 'no export being built with this id' using errcode = 'P0002';
  end if;
end;
$$;
revoke all on function public.business_export_progress(uuid, bigint, text, text) from public;
grant execute on function public.business_export_progress(uuid, bigint, text, text) to service_role;

-- The owner's progress bar: the state of one of their exports (null for anyone else).
create or replace function public.business_export_status(_export_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('state', e.state, 'rows_done', e.rows_done, 'rows_total', e.rows_total,
                            'requested_at', e.requested_at, 'finished_at', e.finished_at)
    from private.business_exports e
   where e.id = _export_id and private.my_role(e.business_id) = 'owner';
$$;
revoke all on function public.business_export_status(uuid) from public;
grant execute on function public.business_export_status(uuid) to authenticated;

-- The file of a ready export, for the download link (owner, aal2 when enrolled: the link is the export itself).
create or replace function public.business_export_file(_export_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_export private.business_exports;
begin
  select * into v_export from private.business_exports e where e.id = _export_id;
  if v_export.id is null or private.my_role(v_export.business_id) is distinct from 'owner' then
    raise exception 'no such export' using errcode = 'P0002';
  end if;
  perform private.assert_aal2_if_enrolled();
  if v_export.state <> 'ready' then
    raise exception 'the export is %', case v_export.state when 'failed' then 'failed: export again' else 'not ready yet' end
      using errcode = 'P0001';
  end if;
  return v_export.object_name;
end;
$$;
revoke all on function public.business_export_file(uuid) from public;
grant execute on function public.business_export_file(uuid) to authenticated;

-- ==== The erasure removes the uploads =========================================================================

alter table private.business_deletions drop constraint business_deletions_step_check;
alter table private.business_deletions add constraint business_deletions_step_check
  check (step is null or step = any (array['begin'::text, 'customers'::text, 'staff'::text, 'uploads'::text, 'tickets'::text, 'contact'::text]));

-- The business's files in Storage (service role: the business-deletion function removes them through the Storage
-- API): product pictures, logos and exports under `<business id>/`, support attachments under `<ticket id>/` of its
-- tickets (docs/adr/0231). Read here because the API's list is one folder level at a time.
create or replace function public.business_erasure_uploads(_business_id uuid, _limit integer default 500)
returns table (bucket_id text, name text)
language sql
stable
security definer
set search_path = ''
as $$
  select o.bucket_id, o.name from storage.objects o
   where (o.bucket_id in ('product-images', 'product-thumbnails', 'business-logos', 'exports')
          and (storage.foldername(o.name))[1] = _business_id::text)
      or (o.bucket_id = 'support-attachments'
          and (storage.foldername(o.name))[1] in (select t.id::text from public.support_tickets t where t.business_id = _business_id))
   order by o.bucket_id, o.name
   limit greatest(least(coalesce(_limit, 500), 1000), 1);
$$;
revoke all on function public.business_erasure_uploads(uuid, integer) from public;
grant execute on function public.business_erasure_uploads(uuid, integer) to service_role;

-- The function records what it did outside the database: the provider's cancellation, and the files removed from
-- each bucket (one proof row per bucket and batch).
create or replace function public.business_deletion_record(_business_id uuid, _what text, _rows integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _what not in ('subscription canceled at the provider', 'uploads removed',
                   'uploads removed from product-images', 'uploads removed from product-thumbnails',
                   'uploads removed from business-logos', 'uploads removed from exports',
                   'uploads removed from support-attachments') then
    raise exception 'unknown erasure record' using errcode = '22023';
  end if;
  if not exists (select 1 from private.business_deletions d where d.business_id = _business_id and d.state in ('pending', 'erasing')) then
    raise exception 'no deletion under way' using errcode = 'P0002';
  end if;
  if _what = 'subscription canceled at the provider' then
    update private.business_deletions d set subscription_canceled_at = coalesce(d.subscription_canceled_at, now()), updated_at = now()
     where d.business_id = _business_id;
  end if;
  insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, _what, greatest(_rows, 0));
end;
$$;
revoke all on function public.business_deletion_record(uuid, text, integer) from public;
grant execute on function public.business_deletion_record(uuid, text, integer) to service_role;

-- One step of the erasure in one transaction (the call's): returns the step it did, or 'done'. A process killed
-- during a call loses only that call's transaction; calling again redoes it. Customers go in batches of _batch,
-- each customer whole (its row and its trail entries in the same transaction). 'uploads' is returned as long as
-- Storage holds files of the business: the caller removes them (business_erasure_uploads) and calls again; the
-- step advances only when none is left, so files and rows go together however often the run is cut off.
create or replace function public.business_erasure_step(_business_id uuid, _batch integer default 500)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_deletion private.business_deletions;
  v_ids uuid[];
  v_rows integer;
  v_years integer;
begin
  if _batch is null or _batch not between 1 and 10000 then
    raise exception 'batch must be between 1 and 10000' using errcode = '22023';
  end if;
  select * into v_deletion from private.business_deletions d where d.business_id = _business_id for update;
  if v_deletion.business_id is null then
    raise exception 'no deletion of this business' using errcode = 'P0002';
  end if;
  if v_deletion.legal_hold then
    raise exception 'this deletion is on legal hold' using errcode = 'P0001';
  end if;
  if v_deletion.state in ('retained', 'purged') then
    return 'done';
  end if;
  if v_deletion.state = 'canceled' or (v_deletion.state = 'pending' and v_deletion.erase_after > now()) then
    raise exception 'this deletion is not due' using errcode = 'P0001';
  end if;
  if v_deletion.subscription_canceled_at is null and exists (select public.business_deletion_subscriptions(_business_id)) then
    raise exception 'cancel the subscription at the provider first' using errcode = 'P0001';
  end if;

  if v_deletion.state = 'pending' then
    -- begin: nobody works in the business any more; the owner still sees it, suspended, to know why.
    update public.businesses b set suspended_at = coalesce(b.suspended_at, now()), suspended_reason = 'Deleted by its owner'
     where b.id = _business_id;
    update private.business_deletions d set state = 'erasing', step = 'customers', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'erasure begun, business suspended', 1);
    return 'begin';
  end if;

  if v_deletion.step = 'customers' then
    select array_agg(c.id) into v_ids
      from (select c.id from public.customers c where c.business_id = _business_id and c.erased_at is null
             order by c.id limit _batch) c;
    if v_ids is not null then
      v_rows := private.erase_customers(_business_id, v_ids);
      insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'customers erased', v_rows);
      return 'customers';
    end if;
    update private.business_deletions d set step = 'staff', updated_at = now() where d.business_id = _business_id;
    return 'customers';
  end if;

  if v_deletion.step = 'staff' then
    delete from public.member_store_access a where a.business_id = _business_id;
    delete from public.business_members m where m.business_id = _business_id and m.role <> 'owner';
    get diagnostics v_rows = row_count;
    delete from public.invitations i where i.business_id = _business_id;
    -- Staff names and emails in the trail (who did what keeps its actor id).
    perform set_config('storewise.trail_redaction', 'on', true);
    update public.activity a
       set actor_label = null, actor_email = null,
           before = case when a.entity_type in ('member', 'invitation', 'customer') then private.redact_person_fields(a.before) else a.before end,
           after = case when a.entity_type in ('member', 'invitation', 'customer') then private.redact_person_fields(a.after) else a.after end
     where a.business_id = _business_id
       and (a.actor_label is not null or a.actor_email is not null or a.entity_type in ('member', 'invitation'));
    perform set_config('storewise.trail_redaction', 'off', true);
    update private.business_deletions d set step = 'uploads', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'staff memberships, invitations and names erased', v_rows);
    return 'staff';
  end if;

  if v_deletion.step = 'uploads' then
    if exists (select 1 from public.business_erasure_uploads(_business_id, 1)) then
      return 'uploads';
    end if;
    update private.business_deletions d set step = 'tickets', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'uploads removed', 0);
    return 'uploads';
  end if;

  if v_deletion.step = 'tickets' then
    delete from public.support_tickets t where t.business_id = _business_id;
    get diagnostics v_rows = row_count;
    update private.business_deletions d set step = 'contact', updated_at = now() where d.business_id = _business_id;
    insert into private.business_erasure_proofs (business_id, what, rows_affected) values (_business_id, 'support tickets erased', v_rows);
    return 'tickets';
  end if;

  -- contact: the business's own email and phone; then the fiscal records wait out the retention period.
  update public.businesses b set email = null, phone = null where b.id = _business_id;
  v_years := private.retention_years(v_deletion.country);
  update private.business_deletions d
     set state = 'retained', step = null, erased_at = now(), retain_until = now() + make_interval(years => v_years), updated_at = now()
   where d.business_id = _business_id;
  insert into private.business_erasure_proofs (business_id, what, rows_affected)
  values (_business_id, format('personal data erased; fiscal records kept %s years', v_years), 1);
  return 'contact';
end;
$$;
revoke all on function public.business_erasure_step(uuid, integer) from public;
grant execute on function public.business_erasure_step(uuid, integer) to service_role;

-- ==== An owner of erased businesses may delete their login ====================================================

-- The businesses a user owns that still hold personal data: any not yet erased (retained and purged ones are
-- fiscal records only; their owner_id stays, the soft-deleted auth row keeps the id).
create or replace function private.owns_live_business(_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.businesses b
                  where b.owner_id = _user_id
                    and not exists (select 1 from private.business_deletions d
                                     where d.business_id = b.id and d.state in ('retained', 'purged')));
$$;
revoke all on function private.owns_live_business(uuid) from public;

create or replace function public.account_deletion_check()
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
begin
  if v_user is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  if private.owns_live_business(v_user) then
    raise exception 'you own a business: transfer it to another member or delete the business first'
      using errcode = 'P0001';
  end if;
  return v_user;
end;
$$;
revoke all on function public.account_deletion_check() from public;
grant execute on function public.account_deletion_check() to authenticated;

create or replace function public.erase_member_personal_data(_user_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if _user_id is null or not exists (select 1 from auth.users u where u.id = _user_id) then
    raise exception 'no such user' using errcode = 'P0002';
  end if;
  if private.owns_live_business(_user_id) then
    raise exception 'the user owns a business: transfer it or delete the business first' using errcode = 'P0001';
  end if;
  insert into private.account_security_events (user_id, actor_id, kind) values (_user_id, _user_id, 'account.deleted');
  delete from public.member_store_access a where a.user_id = _user_id;
  delete from public.business_members m where m.user_id = _user_id;
  update public.profiles p
     set full_name = 'Former staff member', phone = null, business_name = null, business_email = null
   where p.id = _user_id;
  delete from private.mfa_recovery_codes c where c.user_id = _user_id;
end;
$$;
revoke all on function public.erase_member_personal_data(uuid) from public;
grant execute on function public.erase_member_personal_data(uuid) to service_role;

-- ==== The personal data export adds the caller's own trail entries (newest 5,000) ============================

-- The personal export reads a user's own entries across businesses.
create index activity_actor_at_idx on public.activity (actor_id, at desc);

-- One JSON document of what Storewise holds about the caller as a person: the login (no password, token or
-- authenticator secret), profile, memberships, sign-ins, sessions, notifications, tickets with their replies, plan,
-- billing history, payment methods and the trail entries they are the actor of. A business's own data is the
-- owner's business export, not this. Needs the
-- second factor of a user who has one.
create or replace function public.export_my_personal_data()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
begin
  if v_user is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  return jsonb_build_object(
    'exported_at', now(),
    'format', 'storewise-personal-data/1',
    'login', (select jsonb_build_object('id', u.id, 'email', u.email, 'phone', u.phone, 'created_at', u.created_at,
                                        'last_sign_in_at', u.last_sign_in_at, 'email_confirmed_at', u.email_confirmed_at)
                from auth.users u where u.id = v_user),
    'authenticators', (select coalesce(jsonb_agg(jsonb_build_object('name', f.friendly_name, 'type', f.factor_type,
                                                                     'status', f.status, 'created_at', f.created_at)
                                                 order by f.created_at), '[]'::jsonb)
                         from auth.mfa_factors f where f.user_id = v_user),
    'profile', (select to_jsonb(p) from public.profiles p where p.id = v_user),
    'memberships', (select coalesce(jsonb_agg(jsonb_build_object('business', b.name, 'role', m.role,
                                                                 'all_stores', m.all_stores, 'since', m.created_at)), '[]'::jsonb)
                      from public.business_members m join public.businesses b on b.id = m.business_id
                     where m.user_id = v_user),
    'login_activity', (select coalesce(jsonb_agg(to_jsonb(t) order by t.login_at desc), '[]'::jsonb)
                         from public.login_activity t where t.user_id = v_user),
    'active_sessions', (select coalesce(jsonb_agg(to_jsonb(t) order by t.last_active desc), '[]'::jsonb)
                          from public.active_sessions t where t.user_id = v_user),
    'notifications', (select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from public.notifications t where t.user_id = v_user),
    'support_tickets', (select coalesce(jsonb_agg(to_jsonb(t) || jsonb_build_object('replies',
                                  (select coalesce(jsonb_agg(to_jsonb(r) order by r.created_at), '[]'::jsonb)
                                     from public.ticket_replies r where r.ticket_id = t.id))), '[]'::jsonb)
                          from public.support_tickets t where t.user_id = v_user),
    'plan', (select to_jsonb(t) from public.user_plans t where t.user_id = v_user),
    'billing_history', (select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from public.billing_history t where t.user_id = v_user),
    'payment_methods', (select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from public.payment_methods t where t.user_id = v_user),
    -- What the caller did in the businesses they belong(ed) to: the trail entries they are the actor of.
    'own_activity', (select coalesce(jsonb_agg(jsonb_build_object('business', b.name, 'at', a.at, 'kind', a.kind,
                                                                  'entity_type', a.entity_type, 'entity_id', a.entity_id)
                                               order by a.at desc), '[]'::jsonb)
                       from (select x.* from public.activity x where x.actor_id = v_user order by x.at desc limit 5000) a
                       join public.businesses b on b.id = a.business_id)
  );
end;
$$;
revoke all on function public.export_my_personal_data() from public;
grant execute on function public.export_my_personal_data() to authenticated;
