-- Reports run without JIT compilation (issue 14).
--
-- A year of a large business gives report plans costs far above jit_above_cost, so PostgreSQL compiles them with
-- LLVM on every call: measured at 1,000,000 sale lines, about 1 s of compilation around a few milliseconds of real
-- work (ADR 0162; "JIT Total" in EXPLAIN ANALYZE). The reports read summaries by index, which JIT never speeds
-- up. business_overview already sets it (20261125100000); this does the same for every public report function
-- and the private rankings they call (a function's SET applies to what it calls, the private ones are set too for
-- callers that reach them another way). Hosted projects have JIT on by default; PGlite has no JIT, the setting
-- is accepted and does nothing there.
do $$
declare
  v_function regprocedure;
begin
  for v_function in
    select p.oid::regprocedure
      from pg_catalog.pg_proc p
      join pg_catalog.pg_namespace n on n.oid = p.pronamespace
     where (n.nspname = 'public' and p.proname like 'report\_%')
        or (n.nspname = 'private' and p.proname in ('top_sellers', 'worst_sellers', 'report_facts'))
  loop
    execute format('alter function %s set jit = off', v_function);
  end loop;
end;
$$;
