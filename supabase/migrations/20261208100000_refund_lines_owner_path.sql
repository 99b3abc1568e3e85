-- Refund lines: an owner's (or a full-access manager's) read no longer builds the set of every refund they can see
-- (issue 32, ADR 0438).
--
-- The policy was "refund_id in (select id from refunds)". PostgreSQL evaluates it as a hashed set of every visible
-- refund, built on the first row, whatever the query asks for; building it evaluates the refunds policy on every
-- refund of the database, and for a refund of another business that includes the caller's own shifts as a set. At
-- 10,000,000 sale lines over 100 stores that set took 190 ms, and the best and worst sellers, sell-through and the
-- owner's overview each paid it. A line whose business the caller reads in full as owner or manager is readable
-- through its refund anyway (refund_lines (refund_id, business_id) references refunds (id, business_id), and the
-- refunds policy admits those businesses), so that test comes first and the refunds set is built only for the other
-- callers: managers of some stores and cashiers of their own shifts. What each role can read does not change.

drop policy "refund_lines: readers of the refund" on public.refund_lines;
create policy "refund_lines: readers of the refund" on public.refund_lines for select to authenticated
  using (((business_id in (select private.my_full_access_business_ids()))
          and (business_id in (select private.my_business_ids(array['owner', 'manager']))))
         or (refund_id in (select f.id from public.refunds f)));
