-- report_register_outbox (ADR 0330) is the register reporting its outbox, not a report, but it carries the report_
-- prefix that the no-JIT rule of report functions reads (20261125150000); a one-row upsert never wants JIT either.
alter function public.report_register_outbox(uuid, integer, timestamp with time zone) set jit = off;
