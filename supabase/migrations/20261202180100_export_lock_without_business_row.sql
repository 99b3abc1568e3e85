-- begin_business_export held the business row FOR UPDATE while it counted every table, which blocked every insert
-- with a foreign key to businesses (sales, the trail) in that business for as long (review of 20261202110000).
-- One export at a time per business is now a transaction advisory lock on the business's export key (as
-- spend_email and admin_send_test_email do), which nothing else takes; the role is read once. Every other rule
-- is as before.
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
  v_role text;
  t record;
begin
  if (select auth.uid()) is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  v_role := private.my_role(_business_id);
  if v_role is null then
    raise exception 'no such business' using errcode = 'P0002';
  end if;
  if v_role <> 'owner' then
    raise exception 'permission denied: only the owner exports the business' using errcode = '42501';
  end if;
  perform private.assert_aal2_if_enrolled();
  -- A second request waits here until the first one's transaction ends, then sees its job as building.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('business_export:' || _business_id::text, 0));
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
