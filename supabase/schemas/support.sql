-- Support (shared/features/dashboard/support and admin/support): tickets, replies, the ticket search text and
-- the queue counts the desk reads.
-- Invariants: a customer sees only their own tickets; replies and status changes go only through customer_reply,
-- admin_reply and admin_set_ticket; the queue counts equal the tickets they count (kept by statement triggers).
--
-- Written by scripts/schema-extract.ts from the migrations and kept equal to them by
-- tests/hosted/schema-files.test.ts: change an object here, then generate its migration (README, Contributing).

-- Function bodies are checked when they run, not when created: the files need no order among functions.
set check_function_bodies = off;

-- ==== Tables: columns, constraints, row level security, grants and comments ===============================

create table public.support_tickets (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  subject text not null,
  message text not null,
  status text default 'open'::text not null,
  priority text default 'medium'::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  business_id uuid,
  owner_email text,
  assigned_admin uuid,
  waiting_on text default 'us'::text not null,
  waiting_since timestamp with time zone default now() not null,
  last_reply_at timestamp with time zone,
  queue_rank smallint generated always as (
case
    when (status = any (array['resolved'::text, 'closed'::text])) then 2
    when (waiting_on = 'us'::text) then 0
    else 1
end) stored,
  constraint support_tickets_pkey primary key (id),
  constraint support_tickets_message_check check (((char_length(btrim(message)) >= 1) and (char_length(btrim(message)) <= 5000))),
  constraint support_tickets_priority_check check ((priority = any (array['low'::text, 'medium'::text, 'high'::text, 'urgent'::text]))),
  constraint support_tickets_status_check check ((status = any (array['open'::text, 'in_progress'::text, 'pending_customer'::text, 'resolved'::text, 'closed'::text]))),
  constraint support_tickets_subject_check check (((char_length(btrim(subject)) >= 1) and (char_length(btrim(subject)) <= 200))),
  constraint support_tickets_waiting_on_check check ((waiting_on = any (array['us'::text, 'customer'::text]))),
  constraint support_tickets_assigned_admin_fkey foreign key (assigned_admin) references auth.users(id) on delete set null,
  constraint support_tickets_business_id_fkey foreign key (business_id) references public.businesses(id) on delete set null,
  constraint support_tickets_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.support_tickets enable row level security;
alter publication supabase_realtime add table public.support_tickets;
comment on table public.support_tickets is 'Owner inserts own tickets as open/medium and reads own; admins read all. Replies and status changes only through customer_reply, admin_reply and admin_set_ticket.';
comment on column public.support_tickets.owner_email is 'The owner''s sign-in email when the ticket was filed: the admin search matches it through a trigram index (auth.users cannot be indexed on hosted).';
comment on column public.support_tickets.waiting_since is 'Since when the ticket waits on waiting_on: the first unanswered customer message, or the last staff answer.';
grant delete, insert, select, update on table public.support_tickets to service_role;
grant select on table public.support_tickets to authenticated;
grant insert (user_id, subject, message, status, priority) on table public.support_tickets to authenticated;

create table public.ticket_replies (
  id uuid default gen_random_uuid() not null,
  ticket_id uuid not null,
  author_id uuid,
  is_staff boolean not null,
  body text not null,
  created_at timestamp with time zone default now() not null,
  constraint ticket_replies_pkey primary key (id),
  constraint ticket_replies_body_check check (((char_length(btrim(body)) >= 1) and (char_length(btrim(body)) <= 5000))),
  constraint ticket_replies_author_id_fkey foreign key (author_id) references auth.users(id) on delete set null,
  constraint ticket_replies_ticket_id_fkey foreign key (ticket_id) references public.support_tickets(id) on delete cascade
);
alter table public.ticket_replies enable row level security;
alter publication supabase_realtime add table public.ticket_replies;
comment on table public.ticket_replies is 'The ticket''s owner and admins read; nobody writes through the API: customer_reply and admin_reply append.';
grant delete, insert, select, update on table public.ticket_replies to service_role;
grant select on table public.ticket_replies to authenticated;

create table private.support_ticket_search (
  ticket_id uuid not null,
  search_text text not null,
  status text,
  priority text,
  queue_rank smallint,
  waiting_since timestamp with time zone,
  constraint support_ticket_search_pkey primary key (ticket_id),
  constraint support_ticket_search_ticket_id_fkey foreign key (ticket_id) references public.support_tickets(id) on delete cascade
);
alter table private.support_ticket_search enable row level security;
comment on table private.support_ticket_search is 'One search text per support ticket (subject, owner email and name, business name) for the admin queue''s search; written by triggers, read by public.admin_list_tickets. Not exposed to the API roles.';

create table private.support_queue_counts (
  status text not null,
  priority text not null,
  waiting_on text not null,
  n bigint default 0 not null,
  constraint support_queue_counts_pkey primary key (status, priority, waiting_on)
);
alter table private.support_queue_counts enable row level security;
comment on table private.support_queue_counts is 'Tickets per (status, priority, waiting_on): the admin queue''s totals without counting the tickets. Written by triggers on public.support_tickets (private.refresh_support_queue_counts() recomputes), read by private.support_queue_total. Not exposed to the API roles.';

-- ==== Indexes =============================================================================================

create index support_tickets_user_created_idx on public.support_tickets (user_id, created_at desc);

-- The admin queue at 20,000+ tickets: the default order, the filters, the search and the joins.
create index support_tickets_queue_idx on public.support_tickets (queue_rank, waiting_since, id);

create index support_tickets_status_queue_idx on public.support_tickets (status, queue_rank, waiting_since, id);

create index support_tickets_priority_queue_idx on public.support_tickets (priority, queue_rank, waiting_since, id);

create index support_tickets_business_idx on public.support_tickets (business_id);

create index support_tickets_assigned_idx on public.support_tickets (assigned_admin);

create index ticket_replies_ticket_idx on public.ticket_replies (ticket_id, created_at, id);

create index ticket_replies_author_idx on public.ticket_replies (author_id);

create index support_ticket_search_trgm_idx on private.support_ticket_search using gin (search_text extensions.gin_trgm_ops) with (fastupdate=off);

-- ==== Functions ===========================================================================================

-- New tickets: the server fills the queue columns, whatever the insert said.
create or replace function private.support_ticket_defaults()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.business_id := (select m.business_id from public.business_members m where m.user_id = new.user_id
                       order by (m.role = 'owner') desc, m.created_at limit 1);
  new.owner_email := (select u.email from auth.users u where u.id = new.user_id);
  new.waiting_on := 'us';
  new.waiting_since := coalesce(new.created_at, now());
  new.last_reply_at := null;
  new.assigned_admin := null;
  return new;
end;
$$;
revoke all on function private.support_ticket_defaults() from public;

-- ---------------------------------------------------------------------------------------------------
-- Helpers of the functions below.
create or replace function private.ticket_for_update(_ticket_id uuid)
returns public.support_tickets
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.support_tickets;
begin
  select * into v_ticket from public.support_tickets t where t.id = _ticket_id for update;
  -- Someone else's ticket and a missing one answer alike: ids of other tickets are not confirmed.
  if v_ticket.id is null
     or (v_ticket.user_id is distinct from (select auth.uid()) and not public.is_admin((select auth.uid()))) then
    raise exception 'ticket not found' using errcode = '42501';
  end if;
  return v_ticket;
end;
$$;
revoke all on function private.ticket_for_update(uuid) from public;

create or replace function private.checked_reply_body(_body text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if char_length(btrim(coalesce(_body, ''))) not between 1 and 5000 then
    raise exception 'write a reply of 1 to 5000 characters' using errcode = '22023';
  end if;
  return btrim(_body);
end;
$$;
revoke all on function private.checked_reply_body(text) from public;

-- The owner hears about staff answers and resolutions: a bell notification and an email.
create or replace function private.tell_ticket_owner(_ticket public.support_tickets, _template text, _excerpt text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_link text := '/dashboard/support/tickets/' || _ticket.id;
  v_email text := (select u.email from auth.users u where u.id = _ticket.user_id);
begin
  insert into public.notifications (user_id, kind, title, body, link)
  values (_ticket.user_id, 'support.' || _template,
          case _template when 'ticket_resolved' then 'Your ticket was resolved' else 'Support replied to your ticket' end,
          left(_ticket.subject, 500), v_link);
  if v_email is not null then
    insert into public.email_outbox (to_email, template, params)
    values (v_email, _template,
            jsonb_build_object('ticket_id', _ticket.id, 'subject', _ticket.subject, 'excerpt', left(_excerpt, 1000),
                               'link_path', v_link));
  end if;
end;
$$;
revoke all on function private.tell_ticket_owner(public.support_tickets,text,text) from public;

create or replace function private.log_ticket(_ticket public.support_tickets, _kind text, _before jsonb, _after jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if _ticket.business_id is not null then
    perform private.log_activity(_ticket.business_id, null, _kind, 'support_ticket', _ticket.id, _before, _after);
  end if;
end;
$$;
revoke all on function private.log_ticket(public.support_tickets,text,jsonb,jsonb) from public;

-- ---------------------------------------------------------------------------------------------------
-- The customer's reply: their own ticket only, not closed; a resolved or pending ticket reopens.
create or replace function public.customer_reply(_ticket_id uuid, _body text)
returns public.ticket_replies
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.support_tickets := private.ticket_for_update(_ticket_id);
  v_body text := private.checked_reply_body(_body);
  v_reply public.ticket_replies;
  v_status text;
begin
  if v_ticket.user_id is distinct from (select auth.uid()) then
    raise exception 'ticket not found' using errcode = '42501';
  end if;
  if v_ticket.status = 'closed' then
    raise exception 'this ticket is closed: please file a new ticket' using errcode = '22023';
  end if;
  insert into public.ticket_replies (ticket_id, author_id, is_staff, body)
  values (v_ticket.id, (select auth.uid()), false, v_body)
  returning * into v_reply;
  v_status := case when v_ticket.status in ('resolved', 'pending_customer') then 'open' else v_ticket.status end;
  update public.support_tickets t
     set status = v_status,
         last_reply_at = v_reply.created_at,
         -- Already waiting on us: the oldest unanswered message keeps its place in the queue.
         waiting_since = case when t.waiting_on = 'us' and t.status not in ('resolved', 'closed')
                              then t.waiting_since else v_reply.created_at end,
         waiting_on = 'us'
   where t.id = v_ticket.id;
  perform private.log_ticket(v_ticket, 'ticket.replied', null, jsonb_build_object('reply_id', v_reply.id, 'by', 'customer'));
  if v_status <> v_ticket.status then
    perform private.log_ticket(v_ticket, 'ticket.reopened', jsonb_build_object('status', v_ticket.status),
                               jsonb_build_object('status', v_status));
  end if;
  return v_reply;
end;
$$;
comment on function public.customer_reply(uuid,text) is 'The ticket''s owner replies (1..5000 characters); reopens a resolved ticket, refuses a closed one (22023).';
revoke all on function public.customer_reply(uuid,text) from public;
grant execute on function public.customer_reply(uuid,text) to authenticated;

-- Status and priority rules shared by the admin functions.
create or replace function private.checked_ticket_status(_status text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if _status is not null and _status not in ('open', 'pending_customer', 'resolved', 'closed') then
    raise exception 'status must be open, pending_customer, resolved or closed' using errcode = '22023';
  end if;
  return _status;
end;
$$;
revoke all on function private.checked_ticket_status(text) from public;

-- Applies a status (and what it means for whom the ticket waits on); logs and tells the owner on resolve.
create or replace function private.apply_ticket_status(_ticket public.support_tickets, _status text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if _status is null or _status = _ticket.status then
    return;
  end if;
  update public.support_tickets t
     set status = _status,
         waiting_on = case _status when 'open' then 'us' when 'pending_customer' then 'customer' else t.waiting_on end,
         waiting_since = case when _status = 'open' and t.waiting_on <> 'us' then now() else t.waiting_since end
   where t.id = _ticket.id;
  perform private.log_ticket(_ticket, 'ticket.status_changed', jsonb_build_object('status', _ticket.status),
                             jsonb_build_object('status', _status));
  if _status = 'resolved' then
    perform private.tell_ticket_owner(_ticket, 'ticket_resolved', 'Your ticket was marked as resolved.');
  end if;
end;
$$;
revoke all on function private.apply_ticket_status(public.support_tickets,text) from public;

-- An admin answers: the reply is staff's, the ticket then waits on the customer (pending_customer unless
-- another status is given), and the owner gets a notification and an email.
create or replace function public.admin_reply(_ticket_id uuid, _body text, _status text default null)
returns public.ticket_replies
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.support_tickets;
  v_body text;
  v_status text;
  v_reply public.ticket_replies;
begin
  perform private.assert_admin();
  v_ticket := private.ticket_for_update(_ticket_id);
  v_body := private.checked_reply_body(_body);
  v_status := coalesce(private.checked_ticket_status(_status), 'pending_customer');
  insert into public.ticket_replies (ticket_id, author_id, is_staff, body)
  values (v_ticket.id, (select auth.uid()), true, v_body)
  returning * into v_reply;
  update public.support_tickets t
     set last_reply_at = v_reply.created_at, waiting_on = 'customer', waiting_since = v_reply.created_at
   where t.id = v_ticket.id;
  perform private.log_ticket(v_ticket, 'ticket.replied', null, jsonb_build_object('reply_id', v_reply.id, 'by', 'staff'));
  perform private.tell_ticket_owner(v_ticket, 'ticket_reply', v_body);
  select * into v_ticket from public.support_tickets t where t.id = v_ticket.id;
  perform private.apply_ticket_status(v_ticket, v_status);
  return v_reply;
end;
$$;
comment on function public.admin_reply(uuid,text,text) is 'Admins only (42501): a staff reply; the ticket becomes pending_customer (or _status), the owner is told.';
revoke all on function public.admin_reply(uuid,text,text) from public;
grant execute on function public.admin_reply(uuid,text,text) to authenticated;

-- An admin sets status, priority and/or the assignee (null leaves a field as it is; _unassign clears it).
create or replace function public.admin_set_ticket(
  _ticket_id uuid, _status text default null, _priority text default null, _assignee uuid default null,
  _unassign boolean default false
)
returns public.support_tickets
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.support_tickets;
begin
  perform private.assert_admin();
  v_ticket := private.ticket_for_update(_ticket_id);
  perform private.checked_ticket_status(_status);
  if _priority is not null and _priority not in ('low', 'medium', 'high', 'urgent') then
    raise exception 'priority must be low, medium, high or urgent' using errcode = '22023';
  end if;
  if _assignee is not null and not exists (select 1 from private.user_roles r where r.user_id = _assignee and r.role = 'admin') then
    raise exception 'tickets can be assigned to administrators only' using errcode = '22023';
  end if;
  if _priority is not null and _priority <> v_ticket.priority then
    update public.support_tickets t set priority = _priority where t.id = v_ticket.id;
    perform private.log_ticket(v_ticket, 'ticket.priority_changed', jsonb_build_object('priority', v_ticket.priority),
                               jsonb_build_object('priority', _priority));
  end if;
  if (_assignee is not null or coalesce(_unassign, false))
     and (case when coalesce(_unassign, false) then null else _assignee end) is distinct from v_ticket.assigned_admin then
    update public.support_tickets t set assigned_admin = case when coalesce(_unassign, false) then null else _assignee end
     where t.id = v_ticket.id;
    perform private.log_ticket(v_ticket, 'ticket.assigned', jsonb_build_object('assigned_admin', v_ticket.assigned_admin),
                               jsonb_build_object('assigned_admin', case when coalesce(_unassign, false) then null else _assignee end));
  end if;
  perform private.apply_ticket_status(v_ticket, _status);
  select * into v_ticket from public.support_tickets t where t.id = v_ticket.id;
  return v_ticket;
end;
$$;
comment on function public.admin_set_ticket(uuid,text,text,uuid,boolean) is 'Admins only (42501): change a ticket''s status, priority or assignee; each change lands in the activity trail.';
revoke all on function public.admin_set_ticket(uuid,text,text,uuid,boolean) from public;
grant execute on function public.admin_set_ticket(uuid,text,text,uuid,boolean) to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The thread, for the owner and admins: the original message first, then the replies in order. Customers
-- see staff as "Storewise Support"; admins see which admin wrote.
create or replace function public.ticket_thread(_ticket_id uuid)
returns table (id uuid, is_staff boolean, author_name text, body text, created_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := public.is_admin(v_uid);
  v_ticket public.support_tickets;
begin
  select * into v_ticket from public.support_tickets t where t.id = _ticket_id;
  if v_ticket.id is null or (v_ticket.user_id is distinct from v_uid and not v_admin) then
    raise exception 'ticket not found' using errcode = '42501';
  end if;
  return query
    select x.id, x.is_staff, x.author_name, x.body, x.created_at
      from (
        select 0 as ord, v_ticket.id, false as is_staff,
               coalesce(p.full_name, v_ticket.owner_email, 'Customer')::text as author_name,
               v_ticket.message as body, v_ticket.created_at
          from (select 1) one left join public.profiles p on p.id = v_ticket.user_id
        union all
        select 1, r.id, r.is_staff,
               (case when r.is_staff and not v_admin then 'Storewise Support'
                     when r.is_staff then coalesce(ap.full_name, au.email, 'Storewise Support')
                     else coalesce(ap.full_name, au.email, 'Customer') end)::text,
               r.body, r.created_at
          from public.ticket_replies r
          left join public.profiles ap on ap.id = r.author_id
          left join auth.users au on au.id = r.author_id
         where r.ticket_id = v_ticket.id
      ) x
     order by x.ord, x.created_at, x.id;
end;
$$;
comment on function public.ticket_thread(uuid) is 'The ticket''s owner or an admin (42501 otherwise): the original message, then the replies oldest first.';
revoke all on function public.ticket_thread(uuid) from public;
grant execute on function public.ticket_thread(uuid) to authenticated;

-- The admins a ticket can be assigned to.
create or replace function public.admin_list_admins()
returns table (id uuid, name text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query
    select r.user_id, coalesce(p.full_name, u.email)::text
      from private.user_roles r
      join auth.users u on u.id = r.user_id
      left join public.profiles p on p.id = r.user_id
     where r.role = 'admin'
     order by 2;
end;
$$;
revoke all on function public.admin_list_admins() from public;
grant execute on function public.admin_list_admins() to authenticated;

-- One line per field, so a pattern cannot match across two fields' ends. Lower case, searched with LIKE on a
-- lower-cased pattern: ILIKE folds case row by row and was 7x slower than LIKE on PGlite (330 vs 44 ms over
-- 20,000 rows on the loaded bench machine); the trigram index serves both.
create or replace function private.support_ticket_search_text(_subject text, _owner_email text, _user_id uuid,
                                                              _business_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select lower(concat_ws(e'\n', _subject, _owner_email,
                         (select p.full_name from public.profiles p where p.id = _user_id),
                         (select b.name::text from public.businesses b where b.id = _business_id)));
$$;
revoke all on function private.support_ticket_search_text(text,text,uuid,uuid) from public;

create or replace function private.support_ticket_search_sync()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'support_tickets' then
    perform private.refresh_support_ticket_search(array[new.id]);
  elsif tg_table_name = 'profiles' then
    perform private.refresh_support_ticket_search(
      array(select t.id from public.support_tickets t where t.user_id = new.id));
  elsif tg_table_name = 'businesses' then
    perform private.refresh_support_ticket_search(
      array(select t.id from public.support_tickets t where t.business_id = new.id));
  end if;
  return null;
end;
$$;
revoke all on function private.support_ticket_search_sync() from public;

-- Adds deltas, keys in order. A ticket's status change moves it between two keys, and one transaction may change
-- several keys in several statements; taking the admin totals' row lock first (every ticket insert and every change
-- to or from 'open' takes it already, ADR 0060) gives all these writers one queue, so two of them cannot deadlock.
create or replace function private.bump_support_queue_counts(_status text[], _priority text[], _waiting_on text[],
                                                             _delta bigint[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(cardinality(_delta), 0) = 0 then
    return;
  end if;
  perform 1 from private.admin_totals a where a.id for update;
  insert into private.support_queue_counts as c (status, priority, waiting_on, n)
  select d.status, d.priority, d.waiting_on, d.delta
    from unnest(_status, _priority, _waiting_on, _delta) as d (status, priority, waiting_on, delta)
   order by 1, 2, 3
  on conflict (status, priority, waiting_on) do update set n = c.n + excluded.n;
end;
$$;
revoke all on function private.bump_support_queue_counts(text[],text[],text[],bigint[]) from public;

create or replace function private.refresh_support_queue_counts()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from private.admin_totals a where a.id for update;
  delete from private.support_queue_counts c where c.n is not null;
  insert into private.support_queue_counts (status, priority, waiting_on, n)
  select t.status, t.priority, t.waiting_on, count(*) from public.support_tickets t group by 1, 2, 3;
end;
$$;
revoke all on function private.refresh_support_queue_counts() from public;

-- One trigger function per event: transition tables exist only in single-event triggers. Each sums the
-- statement's rows per key and writes only keys whose count changed, so a reply that leaves the status as it is
-- (or a subject edit) writes nothing.
create or replace function private.support_queue_counts_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_status text[]; v_priority text[]; v_waiting text[]; v_delta bigint[];
begin
  select array_agg(d.status), array_agg(d.priority), array_agg(d.waiting_on), array_agg(d.n)
    into v_status, v_priority, v_waiting, v_delta
    from (select r.status, r.priority, r.waiting_on, count(*) as n from new_rows r group by 1, 2, 3) d;
  perform private.bump_support_queue_counts(v_status, v_priority, v_waiting, v_delta);
  return null;
end;
$$;
revoke all on function private.support_queue_counts_ins() from public;

create or replace function private.support_queue_counts_upd() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_status text[]; v_priority text[]; v_waiting text[]; v_delta bigint[];
begin
  select array_agg(d.status), array_agg(d.priority), array_agg(d.waiting_on), array_agg(d.n)
    into v_status, v_priority, v_waiting, v_delta
    from (select x.status, x.priority, x.waiting_on, sum(x.n)::bigint as n
            from (select r.status, r.priority, r.waiting_on, 1 as n from new_rows r
                  union all
                  select r.status, r.priority, r.waiting_on, -1 from old_rows r) x
           group by 1, 2, 3
          having sum(x.n) <> 0) d;
  perform private.bump_support_queue_counts(v_status, v_priority, v_waiting, v_delta);
  return null;
end;
$$;
revoke all on function private.support_queue_counts_upd() from public;

create or replace function private.support_queue_counts_del() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_status text[]; v_priority text[]; v_waiting text[]; v_delta bigint[];
begin
  select array_agg(d.status), array_agg(d.priority), array_agg(d.waiting_on), array_agg(-d.n)
    into v_status, v_priority, v_waiting, v_delta
    from (select r.status, r.priority, r.waiting_on, count(*) as n from old_rows r group by 1, 2, 3) d;
  perform private.bump_support_queue_counts(v_status, v_priority, v_waiting, v_delta);
  return null;
end;
$$;
revoke all on function private.support_queue_counts_del() from public;

-- TRUNCATE has no transition table: recount (nothing to count, but cascades may truncate more than tickets).
create or replace function private.support_queue_counts_truncated() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.refresh_support_queue_counts();
  return null;
end;
$$;
revoke all on function private.support_queue_counts_truncated() from public;

-- The total of a queue without search: the same filters as admin_list_tickets, over the counts.
create or replace function private.support_queue_total(_status text, _priority text, _waiting_on text)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(c.n), 0)::bigint
    from private.support_queue_counts c
   where (_status is null or c.status = _status
          or (_status = 'active' and c.status not in ('resolved', 'closed')))
     and (_priority is null or c.priority = _priority)
     and (_waiting_on is null or (c.waiting_on = _waiting_on and c.status not in ('resolved', 'closed')));
$$;
revoke all on function private.support_queue_total(text,text,text) from public;

create or replace function private.refresh_support_ticket_search(_ticket_ids uuid[] default null)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count bigint;
begin
  insert into private.support_ticket_search as s (ticket_id, search_text, status, priority, queue_rank, waiting_since)
  select t.id, private.support_ticket_search_text(t.subject, t.owner_email, t.user_id, t.business_id),
         t.status, t.priority, t.queue_rank, t.waiting_since
    from public.support_tickets t
   where (_ticket_ids is null and not exists (select 1 from private.support_ticket_search x where x.ticket_id = t.id))
      or t.id = any (_ticket_ids)
  on conflict (ticket_id) do update
    set search_text = excluded.search_text, status = excluded.status, priority = excluded.priority,
        queue_rank = excluded.queue_rank, waiting_since = excluded.waiting_since
    where (s.search_text, s.status, s.priority, s.queue_rank, s.waiting_since)
          is distinct from (excluded.search_text, excluded.status, excluded.priority, excluded.queue_rank,
                            excluded.waiting_since);
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke all on function private.refresh_support_ticket_search(uuid[]) from public;

-- ---------------------------------------------------------------------------------------------------
-- The page's ticket ids and the total, for validated arguments (admin_list_tickets checks the caller and the
-- filters). Dynamic SQL so each filter and pattern gets its own plan (a generic plan cannot use the trigram index
-- for one pattern and a queue index for none).
create or replace function private.support_queue_page(
  _pattern text, _status text, _priority text, _waiting_on text, _limit int, _offset int, _ticket_id uuid
)
returns table (ticket_id uuid, total bigint)
language plpgsql
stable
security definer
set search_path = ''
rows 20
as $$
declare
  -- Whom a ticket waits on, as its queue rank: the queue indexes' second column, so the filter is an index range.
  v_rank smallint := case _waiting_on when 'us' then 0 when 'customer' then 1 end;
  v_filters text := concat_ws(' and ', 'true',
    case when _status = 'active' then 't.queue_rank < 2'
         when _status is not null then 't.status = $2' end,
    case when _priority is not null then 't.priority = $3' end,
    case when v_rank is not null then 't.queue_rank = $4' end);
  v_total bigint;
  v_reverse boolean;
begin
  if _pattern is not null or _ticket_id is not null then
    -- One set of matches, counted and paged. A search reads the search rows alone (the trigram index, then the
    -- queue columns beside each text); one ticket by id (the thread page's header) reads the ticket.
    return query execute format(
      'with matched as materialized (
         select t.%1$s as id, t.queue_rank, t.waiting_since
           from %2$s t
          where %3$s
       ),
       page as (
         select m.id from matched m order by m.queue_rank, m.waiting_since, m.id limit $5 offset $6
       )
       select page.id, (select count(*) from matched) from page',
      case when _pattern is not null then 'ticket_id' else 'id' end,
      case when _pattern is not null then 'private.support_ticket_search' else 'public.support_tickets' end,
      concat_ws(' and ', v_filters,
        case when _pattern is not null then 't.search_text like $1' end,
        case when _ticket_id is not null and _pattern is not null then 't.ticket_id = $7'
             when _ticket_id is not null then 't.id = $7' end))
    using _pattern, _status, _priority, v_rank, _limit, _offset, _ticket_id;
    return;
  end if;

  v_total := private.support_queue_total(_status, _priority, _waiting_on);
  if _offset >= v_total then
    return;
  end if;
  -- Past the middle, walk the index from the far end: the last page costs what the first costs.
  v_reverse := v_total - _offset < _offset + _limit;
  return query execute format(
    'select t.id, $8 from public.support_tickets t where %1$s
      order by t.queue_rank %2$s, t.waiting_since %2$s, t.id %2$s limit $5 offset $6',
    v_filters, case when v_reverse then 'desc' else 'asc' end)
  using _pattern, _status, _priority, v_rank,
        case when v_reverse then least(_limit::bigint, v_total - _offset) else _limit end,
        case when v_reverse then greatest(v_total - _offset - _limit, 0) else _offset end,
        _ticket_id, v_total;
end;
$$;
revoke all on function private.support_queue_page(text,text,text,text,integer,integer,uuid) from public;

-- Same signature, result and rules as in 20261123110000_support_perf.sql: the page comes from
-- private.support_queue_page; this statement is static, so its plan is cached.
create or replace function public.admin_list_tickets(
  _search text default null, _status text default null, _priority text default null, _waiting_on text default null,
  _limit int default 20, _offset int default 0, _ticket_id uuid default null
)
returns table (
  id uuid, subject text, status text, priority text, waiting_on text, waiting_since timestamptz,
  created_at timestamptz, updated_at timestamptz, last_reply_at timestamptz, reply_count bigint,
  user_id uuid, owner_name text, owner_email text, business_id uuid, business_name text,
  assigned_admin uuid, assigned_name text, total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(_search, '')), '');
  v_limit int := least(greatest(coalesce(_limit, 20), 1), 100);
  v_offset int := greatest(coalesce(_offset, 0), 0);
  v_pattern text;
begin
  perform private.assert_admin();
  if char_length(v_search) > 100 then
    raise exception 'search text is too long (100 characters at most)' using errcode = '22023';
  end if;
  if _status is not null and _status not in ('open', 'in_progress', 'pending_customer', 'resolved', 'closed', 'active') then
    raise exception 'unknown status filter' using errcode = '22023';
  end if;
  if _priority is not null and _priority not in ('low', 'medium', 'high', 'urgent') then
    raise exception 'unknown priority filter' using errcode = '22023';
  end if;
  if _waiting_on is not null and _waiting_on not in ('us', 'customer') then
    raise exception 'waiting on must be us or customer' using errcode = '22023';
  end if;
  v_pattern := case when v_search is null then null
                    else '%' || replace(replace(replace(lower(v_search), '\', '\\'), '%', '\%'), '_', '\_') || '%' end;
  return query
    select t.id, t.subject, t.status, t.priority, t.waiting_on, t.waiting_since, t.created_at, t.updated_at,
           t.last_reply_at, (select count(*) from public.ticket_replies r where r.ticket_id = t.id),
           t.user_id, p.full_name, coalesce(u.email::text, t.owner_email), t.business_id, b.name::text,
           t.assigned_admin, coalesce(ap.full_name, au.email::text), page.total
      from private.support_queue_page(v_pattern, _status, _priority, _waiting_on, v_limit, v_offset, _ticket_id) page
      join public.support_tickets t on t.id = page.ticket_id
      left join public.profiles p on p.id = t.user_id
      left join auth.users u on u.id = t.user_id
      left join public.businesses b on b.id = t.business_id
      left join public.profiles ap on ap.id = t.assigned_admin
      left join auth.users au on au.id = t.assigned_admin
     order by t.queue_rank, t.waiting_since, t.id;
end;
$$;
comment on function public.admin_list_tickets(text,text,text,text,integer,integer,uuid) is 'Admins only (42501): the support queue, oldest waiting on us first; filters, search (one trigram index over subject, owner email and name, business name), a page of 1..100; totals from private.support_queue_counts.';
revoke all on function public.admin_list_tickets(text,text,text,text,integer,integer,uuid) from public;
grant execute on function public.admin_list_tickets(text,text,text,text,integer,integer,uuid) to authenticated;

-- ==== Triggers ============================================================================================

create trigger support_tickets_set_updated_at before update on public.support_tickets
  for each row execute function public.set_updated_at();

create trigger support_ticket_defaults before insert on public.support_tickets
  for each row execute function private.support_ticket_defaults();

-- After insert: the before-insert defaults (business, owner email) are in place by then.
create trigger support_ticket_search_insert after insert on public.support_tickets
  for each row execute function private.support_ticket_search_sync();

create trigger support_ticket_search_owner_name after update of full_name on public.profiles
  for each row when (old.full_name is distinct from new.full_name)
  execute function private.support_ticket_search_sync();

create trigger support_ticket_search_business_name after update of name on public.businesses
  for each row when (old.name is distinct from new.name)
  execute function private.support_ticket_search_sync();

create trigger support_queue_counts_ins after insert on public.support_tickets
  referencing new table as new_rows for each statement execute function private.support_queue_counts_ins();

create trigger support_queue_counts_upd after update on public.support_tickets
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.support_queue_counts_upd();

create trigger support_queue_counts_del after delete on public.support_tickets
  referencing old table as old_rows for each statement execute function private.support_queue_counts_del();

create trigger support_queue_counts_truncate after truncate on public.support_tickets
  for each statement execute function private.support_queue_counts_truncated();

create trigger support_ticket_search_update
  after update of subject, owner_email, user_id, business_id, status, priority, waiting_on, waiting_since
  on public.support_tickets
  for each row execute function private.support_ticket_search_sync();

-- ==== Policies ============================================================================================

create policy "support_tickets: owner or admin reads" on public.support_tickets
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin((select auth.uid()))));

create policy "support_tickets: owner files open tickets" on public.support_tickets
  for insert to authenticated
  with check (user_id = (select auth.uid()) and status = 'open' and priority = 'medium');

create policy "ticket_replies: the ticket's owner or an admin reads" on public.ticket_replies
  for select to authenticated
  using (ticket_id in (select t.id from public.support_tickets t where t.user_id = (select auth.uid()))
         or (select public.is_admin((select auth.uid()))));
