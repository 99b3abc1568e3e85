-- Refund lines carry their sale line's variant (issue 32, ADR 0438).
--
-- The best and worst sellers net the refunds of the range for the 10 items they list (private.variant_refunds). The
-- refund line did not know its item: every refund of the range was joined to its sale line to find it, and only then
-- kept or dropped. At 10,000,000 sale lines over 100 stores a year holds 28,000 refund lines, so each ranking paid
-- 28,000 sale-line lookups (about 200 ms) to net the refunds of 10 items. With the variant on the refund line, an
-- index on (variant_id, business_id) gives the refund lines of those items directly.
--
-- The variant is the sale line's, set by a trigger before every insert (post_refund writes the lines; nothing else
-- may), whatever the insert gave; a sale line's variant never changes. Existing lines are filled from their sale
-- lines.

alter table public.refund_lines add column variant_id uuid;
update public.refund_lines rl set variant_id = l.variant_id from public.sale_lines l where l.id = rl.sale_line_id;
alter table public.refund_lines alter column variant_id set not null;
alter table public.refund_lines
  add constraint refund_lines_variant_id_fkey foreign key (variant_id) references public.variants(id);
create index refund_lines_variant_idx on public.refund_lines (variant_id, business_id);
comment on column public.refund_lines.variant_id is 'The sale line''s variant, set on insert by a trigger (ADR 0438).';

-- The refund line's variant is its sale line's, whatever the insert gave.
create or replace function private.refund_lines_variant()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select l.variant_id into new.variant_id from public.sale_lines l
   where l.id = new.sale_line_id and l.business_id = new.business_id;
  return new;
end;
$$;
revoke all on function private.refund_lines_variant() from public;

create trigger refund_lines_variant before insert on public.refund_lines
  for each row execute function private.refund_lines_variant();

-- _variant_ids null: every item refunded in the range. Given items: their refund lines (index on variant and
-- variant), then the refund's day and store; otherwise every refund of the range, then its lines.
create or replace function private.variant_refunds(_business_id uuid, _from date, _to date, _store_id uuid,
                                                   _variant_ids uuid[])
returns table (variant_id uuid, units numeric, revenue numeric, cost numeric)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if _variant_ids is not null then
    return query
      select rl.variant_id, sum(rl.qty),
             sum(rl.amount - case when l.line_total = 0 then 0
                                  else round(rl.amount::numeric * l.tax_amount / l.line_total) end),
             sum(case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end)
        from public.refund_lines rl
        -- One probe per line (the limit keeps it a probe): joined as a set, the planner read every refund.
        cross join lateral (select r.store_id, r.occurred_at from public.refunds r
                             where r.id = rl.refund_id and r.business_id = rl.business_id limit 1) r
        join public.stores st on st.id = r.store_id
        join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
        left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
       where rl.business_id = _business_id and rl.variant_id = any (_variant_ids)
         and st.business_id = _business_id and (_store_id is null or st.id = _store_id)
         and (r.occurred_at at time zone st.time_zone)::date between _from and _to
       group by rl.variant_id;
    return;
  end if;
  return query
    select rl.variant_id, sum(rl.qty),
           sum(rl.amount - case when l.line_total = 0 then 0 else round(rl.amount::numeric * l.tax_amount / l.line_total) end),
           sum(case when rl.disposition = 'restock' then round(rl.qty * coalesce(c.unit_cost, 0)) else 0 end)
      from public.stores st
      join public.refunds r on r.store_id = st.id and r.business_id = _business_id
                           and r.occurred_at >= (_from::timestamp at time zone st.time_zone) - interval '2 hours'
                           and r.occurred_at < ((_to + 1)::timestamp at time zone st.time_zone) + interval '2 hours'
                           and (r.occurred_at at time zone st.time_zone)::date between _from and _to
      join public.refund_lines rl on rl.refund_id = r.id and rl.business_id = r.business_id
      join public.sale_lines l on l.id = rl.sale_line_id and l.business_id = rl.business_id
      left join public.sale_line_costs c on c.sale_line_id = l.id and c.business_id = l.business_id
     where st.business_id = _business_id and (_store_id is null or st.id = _store_id)
     group by rl.variant_id;
end;
$$;
