-- Inventory > Lots (issue 29, ADR 0360): the business's lots with their expiry, recall state and stock, for the
-- screen that starts a recall. Security invoker: row level security decides (members read lots; the stock summed
-- is that of the stores the caller may use).

create or replace function public.lot_list(_business_id uuid, _query text default null, _limit integer default 200)
returns table (
  lot_id uuid, variant_id uuid, product_name text, sku text, lot_number text, expires_on date,
  quarantined_at timestamp with time zone, recall_id uuid, on_hand numeric
)
language sql
stable
set search_path = ''
as $$
  select l.id, v.id, p.name::text, v.sku::text, l.lot_number, l.expires_on, l.quarantined_at, l.recall_id,
         coalesce((select sum(b.qty) from public.stock_balances b where b.lot_id = l.id), 0)
    from public.lots l
    join public.variants v on v.id = l.variant_id
    join public.products p on p.id = v.product_id
   where l.business_id = _business_id
     and (nullif(btrim(coalesce(_query, '')), '') is null
          or position(lower(btrim(_query)) in lower(p.name || ' ' || coalesce(v.sku, '') || ' ' || l.lot_number)) > 0)
   order by l.quarantined_at is not null, l.expires_on nulls last, p.name, l.lot_number
   limit least(greatest(coalesce(_limit, 200), 1), 500);
$$;
comment on function public.lot_list(uuid,text,integer) is 'Members (row level security): the business''s lots with expiry, recall state and the stock in the stores they may use, soonest expiry first, recalled last.';
revoke all on function public.lot_list(uuid,text,integer) from public, anon;
grant execute on function public.lot_list(uuid,text,integer) to authenticated;
