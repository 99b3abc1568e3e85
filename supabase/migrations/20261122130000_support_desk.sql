-- Support desk (issue 15): replies both ways, an admin queue, notifications and an email outbox.
--
-- * support_tickets gains the queue columns (business, owner email for search, assignee, who the ticket waits
--   on and since when, last reply). Nobody updates tickets through the API: the reply and status functions
--   below are the only writers, so a customer cannot set a status (other than reopening by replying) or
--   write as staff.
-- * ticket_replies: read by the ticket's owner and admins; written only by customer_reply / admin_reply.
-- * Every reply and status change is appended to the workspace's activity trail (private.log_activity) under
--   the ticket's business (docs/adr/0120).
-- * notifications: the dashboard bell's rows, one per user; email_outbox: emails the database asks to send,
--   delivered by the local stack's outbox relay, on hosted by a Database Webhook to an Edge Function (ADR 0120).
-- Hosted Supabase no longer grants new tables and functions to the API roles, so every grant is explicit.

-- ---------------------------------------------------------------------------------------------------
-- Ticket columns. 'in_progress' stays valid for existing rows (the spec shows it grey); the desk sets
-- open, pending_customer, resolved and closed.
alter table public.support_tickets drop constraint support_tickets_status_check;
alter table public.support_tickets add constraint support_tickets_status_check
  check (status in ('open', 'in_progress', 'pending_customer', 'resolved', 'closed'));

alter table public.support_tickets
  add column business_id uuid references public.businesses (id) on delete set null,
  add column owner_email text,
  add column assigned_admin uuid references auth.users (id) on delete set null,
  add column waiting_on text not null default 'us' check (waiting_on in ('us', 'customer')),
  add column waiting_since timestamptz not null default now(),
  add column last_reply_at timestamptz,
  -- The queue's order: waiting on us first, then on the customer, then finished tickets.
  add column queue_rank smallint generated always as (
    case when status in ('resolved', 'closed') then 2 when waiting_on = 'us' then 0 else 1 end
  ) stored;

comment on column public.support_tickets.owner_email is
  'The owner''s sign-in email when the ticket was filed: the admin search matches it through a trigram index '
  '(auth.users cannot be indexed on hosted).';
comment on column public.support_tickets.waiting_since is
  'Since when the ticket waits on waiting_on: the first unanswered customer message, or the last staff answer.';

-- Existing tickets: their owner's business and email; finished ones wait on nobody in particular.
update public.support_tickets t
   set business_id = (select m.business_id from public.business_members m where m.user_id = t.user_id
                       order by (m.role = 'owner') desc, m.created_at limit 1),
       owner_email = (select u.email from auth.users u where u.id = t.user_id),
       waiting_since = t.created_at;

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
revoke all on function private.support_ticket_defaults() from public, anon, authenticated;
create trigger support_ticket_defaults before insert on public.support_tickets
  for each row execute function private.support_ticket_defaults();

-- The admin queue at 20,000+ tickets: the default order, the filters, the search and the joins.
create index support_tickets_queue_idx on public.support_tickets (queue_rank, waiting_since, id);
create index support_tickets_status_queue_idx on public.support_tickets (status, queue_rank, waiting_since, id);
create index support_tickets_priority_queue_idx on public.support_tickets (priority, queue_rank, waiting_since, id);
create index support_tickets_business_idx on public.support_tickets (business_id);
create index support_tickets_assigned_idx on public.support_tickets (assigned_admin);
create index support_tickets_subject_trgm_idx on public.support_tickets using gin (subject extensions.gin_trgm_ops);
create index support_tickets_owner_email_trgm_idx on public.support_tickets
  using gin (owner_email extensions.gin_trgm_ops);

comment on table public.support_tickets is
  'Owner inserts own tickets as open/medium and reads own; admins read all. Replies and status changes only '
  'through customer_reply, admin_reply and admin_set_ticket.';

-- ---------------------------------------------------------------------------------------------------
-- Replies.
create table public.ticket_replies (
  id uuid primary key default gen_random_uuid(),
  ticket_id uuid not null references public.support_tickets (id) on delete cascade,
  author_id uuid references auth.users (id) on delete set null,
  is_staff boolean not null,
  body text not null check (char_length(btrim(body)) between 1 and 5000),
  created_at timestamptz not null default now()
);
alter table public.ticket_replies enable row level security;
comment on table public.ticket_replies is
  'The ticket''s owner and admins read; nobody writes through the API: customer_reply and admin_reply append.';
create index ticket_replies_ticket_idx on public.ticket_replies (ticket_id, created_at, id);
create index ticket_replies_author_idx on public.ticket_replies (author_id);

-- ---------------------------------------------------------------------------------------------------
-- Notifications (the dashboard bell) and the email outbox.
create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (char_length(kind) between 1 and 60),
  title text not null check (char_length(title) between 1 and 200),
  body text check (body is null or char_length(body) <= 500),
  link text check (link is null or link ~ '^/[A-Za-z0-9/_-]*$'),
  created_at timestamptz not null default now(),
  read_at timestamptz
);
alter table public.notifications enable row level security;
comment on table public.notifications is
  'Each user reads and marks read (read_at) only their own; security definer functions insert them.';
create index notifications_user_idx on public.notifications (user_id, created_at desc);
create index notifications_unread_idx on public.notifications (user_id) where read_at is null;

create table public.email_outbox (
  id bigint generated always as identity primary key,
  to_email text not null,
  template text not null check (template in ('ticket_reply', 'ticket_resolved')),
  params jsonb not null default '{}',
  created_at timestamptz not null default now()
);
alter table public.email_outbox enable row level security;
comment on table public.email_outbox is
  'Emails the database asks to send. Only the service role reads and deletes them (the local outbox relay; on '
  'hosted the send-email Edge Function behind a Database Webhook, docs/adr/0120). No API role writes.';

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

do $$
declare
  f text;
begin
  foreach f in array array['private.ticket_for_update(uuid)', 'private.checked_reply_body(text)',
    'private.tell_ticket_owner(public.support_tickets, text, text)',
    'private.log_ticket(public.support_tickets, text, jsonb, jsonb)'] loop
    execute format('revoke all on function %s from public, anon, authenticated', f);
  end loop;
end;
$$;

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
comment on function public.customer_reply(uuid, text) is
  'The ticket''s owner replies (1..5000 characters); reopens a resolved ticket, refuses a closed one (22023).';

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
revoke all on function private.checked_ticket_status(text) from public, anon, authenticated;

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
revoke all on function private.apply_ticket_status(public.support_tickets, text) from public, anon, authenticated;

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
comment on function public.admin_reply(uuid, text, text) is
  'Admins only (42501): a staff reply; the ticket becomes pending_customer (or _status), the owner is told.';

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
comment on function public.admin_set_ticket(uuid, text, text, uuid, boolean) is
  'Admins only (42501): change a ticket''s status, priority or assignee; each change lands in the activity trail.';

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
comment on function public.ticket_thread(uuid) is
  'The ticket''s owner or an admin (42501 otherwise): the original message, then the replies oldest first.';

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

-- ---------------------------------------------------------------------------------------------------
-- The admin queue: waiting on us first (oldest first), then waiting on the customer, then finished tickets;
-- filters on status, priority and whom the ticket waits on; search on the subject, the owner's name and
-- email and the business name (trigram indexes, one materialized set of ids); a page of 1..100 with the
-- total on every row. _ticket_id returns that one ticket (the thread page's header).
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
                    else '%' || replace(replace(replace(v_search, '\', '\\'), '%', '\%'), '_', '\_') || '%' end;
  -- Dynamic SQL: each call is planned for its own filters and pattern (a generic plan cannot use the
  -- trigram indexes for one pattern and the queue index for none).
  return query execute format(
    'with matches as materialized (
       %2$s
     ),
     -- The total apart from the page: a window count would sort every match before the first 20 rows,
     -- while the page alone is a walk of the queue index that stops after limit + offset rows.
     total as (
       select count(*) as n from public.support_tickets t where %1$s
     ),
     page as materialized (
       select t.id, (select n from total) as total
         from public.support_tickets t
        where %1$s
        order by t.queue_rank, t.waiting_since, t.id
        limit $5 offset $6
     )
     select t.id, t.subject, t.status, t.priority, t.waiting_on, t.waiting_since, t.created_at, t.updated_at,
            t.last_reply_at, (select count(*) from public.ticket_replies r where r.ticket_id = t.id),
            t.user_id, p.full_name, coalesce(u.email::text, t.owner_email), t.business_id, b.name::text,
            t.assigned_admin, coalesce(ap.full_name, au.email::text), page.total
       from page
       join public.support_tickets t on t.id = page.id
       left join public.profiles p on p.id = t.user_id
       left join auth.users u on u.id = t.user_id
       left join public.businesses b on b.id = t.business_id
       left join public.profiles ap on ap.id = t.assigned_admin
       left join auth.users au on au.id = t.assigned_admin
      order by t.queue_rank, t.waiting_since, t.id',
    concat_ws(' and ', 'true',
      case when _ticket_id is not null then 't.id = $7' end,
      case when v_pattern is not null then 't.id in (select m.id from matches m)' end,
      case when _status = 'active' then 't.queue_rank < 2'
           when _status is not null then 't.status = $2' end,
      case when _priority is not null then 't.priority = $3' end,
      case when _waiting_on is not null then 't.waiting_on = $4 and t.queue_rank < 2' end),
    case when v_pattern is null then 'select null::uuid as id where false'
         else 'select t.id from public.support_tickets t where t.subject ilike $1
               union select t.id from public.support_tickets t where t.owner_email ilike $1
               union select t.id from public.support_tickets t join public.profiles p on p.id = t.user_id
                      where p.full_name ilike $1
               union select t.id from public.support_tickets t join public.businesses b on b.id = t.business_id
                      where b.name ilike $1' end)
  using v_pattern, _status, _priority, _waiting_on, v_limit, v_offset, _ticket_id;
end;
$$;
comment on function public.admin_list_tickets(text, text, text, text, int, int, uuid) is
  'Admins only (42501): the support queue, oldest waiting on us first; filters, search, a page of 1..100.';

-- ---------------------------------------------------------------------------------------------------
-- Grants and policies.
revoke all on table public.ticket_replies, public.notifications, public.email_outbox from public, anon, authenticated;
grant select, insert, update, delete on table public.support_tickets, public.ticket_replies, public.notifications
  to service_role;
grant select, delete on table public.email_outbox to service_role;
-- The service role bypasses RLS anyway; the policy states who may read and remove outbox rows.
create policy "email_outbox: the service role delivers" on public.email_outbox
  for all to service_role using (true) with check (true);

grant select on table public.ticket_replies to authenticated;
create policy "ticket_replies: the ticket's owner or an admin reads" on public.ticket_replies
  for select to authenticated
  using (ticket_id in (select t.id from public.support_tickets t where t.user_id = (select auth.uid()))
         or (select public.is_admin((select auth.uid()))));

grant select on table public.notifications to authenticated;
grant update (read_at) on table public.notifications to authenticated;
create policy "notifications: own read" on public.notifications
  for select to authenticated using (user_id = (select auth.uid()));
create policy "notifications: own mark read" on public.notifications
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

do $$
declare
  f text;
begin
  foreach f in array array['public.customer_reply(uuid, text)', 'public.admin_reply(uuid, text, text)',
    'public.admin_set_ticket(uuid, text, text, uuid, boolean)', 'public.ticket_thread(uuid)',
    'public.admin_list_admins()', 'public.admin_list_tickets(text, text, text, text, int, int, uuid)'] loop
    execute format('revoke all on function %s from public, anon', f);
    execute format('grant execute on function %s to authenticated', f);
  end loop;
end;
$$;
