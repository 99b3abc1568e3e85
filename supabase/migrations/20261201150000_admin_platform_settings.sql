-- Issue 30, the admin panel's System Settings and Content Management (docs/adr/0260): one row of platform
-- settings the admin changes at runtime (sign-ups, trial length, grace after a failed payment, the maintenance
-- banner, read-only mode, support, email sender, the public site's announcement bar, status line and FAQ),
-- every change kept in a trail with before and after; the five legal pages as versioned Markdown documents
-- (a draft per page, published versions immutable, each readable at a stable address); the notice users get when
-- the terms they accepted change; and the before-user-created hook that enforces the sign-up mode (GoTrue calls
-- it on hosted Supabase, the embedded auth service calls the same function).
-- Written by hand, folded into supabase/schemas/admin.sql by npm run schema:extract.

-- ==== Settings ============================================================================================

create table private.platform_settings (
  id boolean default true not null,
  signup_mode text default 'open' not null,
  trial_days integer default 7 not null,
  payment_grace_days integer default 14 not null,
  banner_text text default '' not null,
  banner_severity text default 'info' not null,
  banner_starts_at timestamp with time zone,
  banner_ends_at timestamp with time zone,
  read_only boolean default false not null,
  read_only_message text default '' not null,
  support_response_hours integer default 24 not null,
  support_email text default 'support@storewise.app' not null,
  email_sender_name text default 'Storewise' not null,
  email_reply_to text default 'support@storewise.app' not null,
  announcement_text text default '' not null,
  announcement_link text default '' not null,
  status_line text default 'All Systems Operational' not null,
  faq jsonb default '[]'::jsonb not null,
  updated_at timestamp with time zone default now() not null,
  updated_by uuid,
  constraint platform_settings_pkey primary key (id),
  constraint platform_settings_one_row check (id),
  constraint platform_settings_signup_mode_check check (signup_mode in ('open', 'invitation_only', 'closed')),
  constraint platform_settings_trial_days_check check (trial_days between 0 and 90),
  constraint platform_settings_payment_grace_days_check check (payment_grace_days between 0 and 60),
  constraint platform_settings_banner_text_check check (char_length(banner_text) <= 280 and banner_text !~ '[\r\n]'),
  constraint platform_settings_banner_severity_check check (banner_severity in ('info', 'warning', 'critical')),
  constraint platform_settings_banner_window_check check (banner_ends_at is null or banner_starts_at is null or banner_ends_at > banner_starts_at),
  constraint platform_settings_read_only_message_check check (char_length(read_only_message) <= 280),
  constraint platform_settings_support_response_hours_check check (support_response_hours between 1 and 168),
  constraint platform_settings_support_email_check check (char_length(support_email) <= 254 and support_email ~ '^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$'),
  constraint platform_settings_email_sender_name_check check (char_length(btrim(email_sender_name)) >= 1 and char_length(btrim(email_sender_name)) <= 80 and email_sender_name !~ '[\r\n<>"]'),
  constraint platform_settings_email_reply_to_check check (char_length(email_reply_to) <= 254 and email_reply_to ~ '^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$'),
  constraint platform_settings_announcement_text_check check (char_length(announcement_text) <= 200 and announcement_text !~ '[\r\n]'),
  constraint platform_settings_announcement_link_check check (announcement_link = '' or announcement_link ~ '^(/[^\s]*|https://[^\s]+)$' and char_length(announcement_link) <= 500),
  constraint platform_settings_status_line_check check (char_length(btrim(status_line)) >= 1 and char_length(btrim(status_line)) <= 80 and status_line !~ '[\r\n]'),
  constraint platform_settings_faq_check check (jsonb_typeof(faq) = 'array' and jsonb_array_length(faq) <= 30 and char_length(faq::text) <= 20000)
);
alter table private.platform_settings enable row level security;
comment on table private.platform_settings is 'The one row of platform settings (docs/adr/0260). Read by admins through admin_platform_settings, by everyone through public_site_state (the public part only); written only by admin_update_platform_settings, which keeps the trail.';
insert into private.platform_settings (id) values (true);

create table private.platform_setting_changes (
  id bigint generated always as identity not null,
  changed_at timestamp with time zone default now() not null,
  actor_id uuid,
  subject text not null,
  before jsonb not null,
  after jsonb not null,
  constraint platform_setting_changes_pkey primary key (id),
  constraint platform_setting_changes_actor_id_fkey foreign key (actor_id) references auth.users(id) on delete set null
);
alter table private.platform_setting_changes enable row level security;
comment on table private.platform_setting_changes is 'Append-only trail of settings changes and legal publications: what changed (subject), its values before and after, who and when.';
create index platform_setting_changes_changed_at_idx on private.platform_setting_changes using btree (changed_at desc, id desc);

-- The FAQ entries: an array of {question, answer}, each non-empty and bounded (the table check bounds the whole).
create or replace function private.valid_faq(_faq jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(_faq) = 'array'
     and not exists (
       select 1 from jsonb_array_elements(_faq) e
        where jsonb_typeof(e) <> 'object'
           or (select count(*) from jsonb_object_keys(e)) <> 2
           or jsonb_typeof(e -> 'question') <> 'string' or jsonb_typeof(e -> 'answer') <> 'string'
           or char_length(btrim(e ->> 'question')) not between 1 and 200
           or char_length(btrim(e ->> 'answer')) not between 1 and 2000);
$$;
revoke all on function private.valid_faq(jsonb) from public;
alter table private.platform_settings add constraint platform_settings_faq_entries_check check (private.valid_faq(faq));

-- The settings an admin sees and edits, as one JSON object (the names are the column names).
create or replace function private.platform_settings_json()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(s) - 'id' from private.platform_settings s where s.id;
$$;
revoke all on function private.platform_settings_json() from public;

create or replace function public.admin_platform_settings()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return private.platform_settings_json();
end;
$$;
comment on function public.admin_platform_settings() is 'Admins only (42501 otherwise; aal2 once the admin has a factor, ADR 0207): every platform setting.';
revoke all on function public.admin_platform_settings() from public;
grant execute on function public.admin_platform_settings() to authenticated;

-- Applies the given settings (any subset, by column name) in one statement: unknown names and wrong types are
-- refused with 22023, values outside the checks with 23514 (the constraint's name says which); the trail gets
-- the changed settings' values before and after. Nothing is cached anywhere, so the next read sees it.
create or replace function public.admin_update_platform_settings(_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before jsonb;
  v_after jsonb;
  v_unknown text;
  v_changed text[];
begin
  perform private.assert_admin();
  if _changes is null or jsonb_typeof(_changes) <> 'object' or _changes = '{}'::jsonb then
    raise exception 'send the settings to change as an object' using errcode = '22023';
  end if;
  v_before := private.platform_settings_json();
  select k into v_unknown from jsonb_object_keys(_changes) k
   where not (v_before ? k) or k in ('updated_at', 'updated_by') limit 1;
  if v_unknown is not null then
    raise exception 'unknown setting: %', v_unknown using errcode = '22023';
  end if;
  begin
    update private.platform_settings s
       set (signup_mode, trial_days, payment_grace_days, banner_text, banner_severity, banner_starts_at,
            banner_ends_at, read_only, read_only_message, support_response_hours, support_email, email_sender_name,
            email_reply_to, announcement_text, announcement_link, status_line, faq) =
           (select n.signup_mode, n.trial_days, n.payment_grace_days, n.banner_text, n.banner_severity,
                   n.banner_starts_at, n.banner_ends_at, n.read_only, n.read_only_message, n.support_response_hours,
                   n.support_email, n.email_sender_name, n.email_reply_to, n.announcement_text,
                   n.announcement_link, n.status_line, n.faq
              from jsonb_populate_record(s, _changes) n),
           updated_at = now(), updated_by = (select auth.uid())
     where s.id;
  exception
    when invalid_text_representation or invalid_datetime_format or datetime_field_overflow
         or numeric_value_out_of_range or invalid_parameter_value then
      raise exception 'a setting has a value of the wrong type: %', sqlerrm using errcode = '22023';
  end;
  v_after := private.platform_settings_json();
  select array_agg(k order by k) into v_changed from jsonb_object_keys(_changes) k
   where v_before -> k is distinct from v_after -> k;
  if v_changed is not null then
    insert into private.platform_setting_changes (actor_id, subject, before, after)
    values ((select auth.uid()), 'settings',
            (select jsonb_object_agg(k, v_before -> k) from unnest(v_changed) k),
            (select jsonb_object_agg(k, v_after -> k) from unnest(v_changed) k));
  end if;
  return v_after;
end;
$$;
comment on function public.admin_update_platform_settings(jsonb) is 'Admins only: changes the given platform settings, validated by the table''s checks, and records before and after in the trail.';
revoke all on function public.admin_update_platform_settings(jsonb) from public;
grant execute on function public.admin_update_platform_settings(jsonb) to authenticated;

create or replace function public.admin_platform_setting_changes(_limit integer default 50)
returns table (id bigint, changed_at timestamptz, actor text, subject text, before jsonb, after jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query
    select c.id, c.changed_at, coalesce(p.full_name::text, 'Deleted user'), c.subject, c.before, c.after
      from private.platform_setting_changes c
      left join public.profiles p on p.id = c.actor_id
     order by c.changed_at desc, c.id desc
     limit least(greatest(coalesce(_limit, 50), 1), 200);
end;
$$;
comment on function public.admin_platform_setting_changes(integer) is 'Admins only: the settings trail, newest first.';
revoke all on function public.admin_platform_setting_changes(integer) from public;
grant execute on function public.admin_platform_setting_changes(integer) to authenticated;

-- The values the rest of the schema reads (trial start, billing grace).
create or replace function private.platform_trial_days()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.trial_days from private.platform_settings s where s.id), 7);
$$;
revoke all on function private.platform_trial_days() from public;
grant execute on function private.platform_trial_days() to authenticated, service_role;

create or replace function private.platform_grace()
returns interval
language sql
stable
security definer
set search_path = ''
as $$
  select make_interval(days => coalesce((select s.payment_grace_days from private.platform_settings s where s.id), 14));
$$;
revoke all on function private.platform_grace() from public;
grant execute on function private.platform_grace() to authenticated, service_role;

-- ==== Legal documents =====================================================================================

create table private.legal_versions (
  id bigint generated always as identity not null,
  slug text not null,
  version integer,
  body_md text not null,
  status text default 'draft' not null,
  effective_at timestamp with time zone,
  published_at timestamp with time zone,
  created_by uuid,
  updated_at timestamp with time zone default now() not null,
  constraint legal_versions_pkey primary key (id),
  constraint legal_versions_slug_check check (slug in ('privacy-policy', 'terms-of-service', 'cookie-policy', 'gdpr-compliance', 'data-security-policy')),
  constraint legal_versions_body_md_check check (char_length(btrim(body_md)) between 1 and 100000),
  constraint legal_versions_status_check check (status in ('draft', 'published')),
  constraint legal_versions_published_check check ((status = 'published') = (version is not null and effective_at is not null and published_at is not null)),
  constraint legal_versions_version_check check (version is null or version >= 1),
  constraint legal_versions_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null
);
alter table private.legal_versions enable row level security;
comment on table private.legal_versions is 'The five legal pages as Markdown: one draft per page (version null) and the published versions, which never change (docs/adr/0261).';
create unique index legal_versions_slug_version_key on private.legal_versions using btree (slug, version) where (version is not null);
create unique index legal_versions_one_draft_key on private.legal_versions using btree (slug) where (status = 'draft');

-- Version 1 of each legal page: the text the site has shown since it opened (shared/features/legal/documents,
-- as Markdown by legalDocumentToMarkdown; a test keeps the two equal).
insert into private.legal_versions (slug, version, body_md, status, effective_at, published_at) values
  ('privacy-policy', 1, 'This policy explains what personal information Storewise collects when you use our retail management platform and the online marketplace for lifestyle, grocery and urban-living goods run on it, why we collect it, and the choices you have.

## 1. Who we are

Storewise ("we", "us") provides software that shop owners use to run their stores, and a marketplace where those stores offer lifestyle, grocery and urban-living goods. Storewise is the controller of the account data described here. When a store uses Storewise to keep records about its own customers, the store is the controller of those records and we process them on its behalf.

## 2. Information we collect

We collect only what we need to provide and secure the service:

- Account details: your full name, email address, password (stored only as a one-way hash), phone number, business name and business type.
- Subscription and billing details: your plan, billing cycle, invoices and the last four digits and expiry of saved payment cards. Full card numbers are handled by our payment processor and never reach our servers.
- Security information: sign-in times, device type, approximate location derived from your IP address, and active sessions, so that you can spot access you do not recognise.
- Support requests: the subject, message and any attachment you send us.
- Sign-in through Google: your name, email address and profile picture as shared by Google with your consent.

## 3. How we use your information

We use your information to create and secure your account, provide the features of your plan, process payments, send service emails (such as confirmation and password reset links), answer support requests, and meet our legal obligations. We do not sell personal information and we do not use it for third-party advertising.

## 4. Legal bases

Where data protection law requires a legal basis, we rely on the performance of our contract with you, our legitimate interest in keeping the service secure and improving it, compliance with legal obligations, and, where we ask for it, your consent, which you may withdraw at any time.

## 5. Sharing

We share information only with service providers who help us run Storewise (hosting, email delivery, payment processing, customer support tooling) under contracts that limit their use of it to our instructions, and with authorities where the law requires it. If Storewise is involved in a merger or acquisition, your information may transfer to the new owner under this policy.

## 6. Retention

We keep account data while your account is open. After you close it we delete or anonymise it within 90 days, except billing records, which we keep for as long as tax and accounting law requires.

## 7. Your rights

You can view and correct your profile in the dashboard at any time. You may also ask us for a copy of your data, its deletion, the restriction of or an objection to its processing, or its transfer to another provider. Write to privacy@storewise.example; we answer within 30 days.

## 8. Children

Storewise is a service for businesses. You must be at least 18 years old to create an account, and we do not knowingly collect information from anyone under 18.

## 9. Changes and contact

We will post any change to this policy on this page and, for significant changes, tell you by email before they take effect. Questions: privacy@storewise.example.
', 'published', '2025-09-13T00:00:00Z', '2025-09-13T00:00:00Z'),
  ('terms-of-service', 1, 'These terms govern your use of Storewise, the retail management platform and the online marketplace for lifestyle, grocery and urban-living goods that runs on it. By creating an account you agree to them.

## 1. Eligibility

You must be at least 18 years old and able to enter into a binding contract to use Storewise. If you accept these terms on behalf of a business, you confirm that you have the authority to bind it.

## 2. Your account

Keep your sign-in details confidential and tell us at once if you suspect unauthorised access. You are responsible for the activity of the staff members you invite and for keeping the information in your account accurate.

## 3. Plans, trials and payment

Paid plans are billed annually in advance at the price shown on our pricing page. Every annual plan starts with a 7-day free trial; if you do not cancel before the trial ends, the plan starts and the first payment is taken. Plans renew automatically unless you turn off auto-renew in your dashboard before the renewal date. Fees are non-refundable except where the law says otherwise.

## 4. Acceptable use

You agree not to:

- sell goods that are illegal, counterfeit or unsafe, or that you have no right to sell;
- attempt to access accounts or data that are not yours, or probe, scan or test the security of the service without our written permission;
- upload malware or interfere with the operation of the service;
- resell the service or use it to build a competing product.

## 5. Your data

You own the data you put into Storewise. You give us the limited permission we need to host, process and display it to provide the service. Our Privacy Policy and Data Security Policy explain how we protect it.

## 6. Availability

We aim for 99.9% monthly uptime and announce planned maintenance in advance. The service is provided "as is"; we do not promise that it will be free of errors or interruptions.

## 7. Limitation of liability

To the extent the law allows, Storewise is not liable for indirect or consequential losses, such as lost profits or lost data, and our total liability for any claim is limited to the amount you paid us in the past 6 months before the event giving rise to the claim.

## 8. Suspension and termination

You may close your account at any time. We may suspend or close an account that breaks these terms, after notice where that is reasonable. On closure you may export your data for 30 days, after which we delete it as described in our Privacy Policy.

## 9. Governing law

These terms are governed by the laws of [JURISDICTION: to be completed by Storewise legal counsel], and the courts of [JURISDICTION] have exclusive jurisdiction over any dispute, without prejudice to the mandatory consumer protection rules of the country where you live.

## 10. Changes and contact

We may update these terms and will give you at least 30 days notice of material changes by email. Questions: legal@storewise.example.
', 'published', '2025-09-13T00:00:00Z', '2025-09-13T00:00:00Z'),
  ('cookie-policy', 1, 'This policy explains the cookies and similar browser storage Storewise uses, how long they last, and how you can control them.

## 1. What cookies are

Cookies are small text files a website stores in your browser. Similar technologies, such as local storage, keep information on your device in the same way. We refer to all of them as cookies here.

## 2. Cookies we use

Storewise uses as few cookies as possible:

- Strictly necessary: keep you signed in and protect your session (stored in your browser local storage until you sign out), and remember your interface preferences, such as whether the dashboard sidebar is open (7 days).
- Preferences: remember choices such as the plan you picked before creating an account, until you start that plan or clear your browser data.
- Analytics: if enabled, measure which pages are used so that we can improve them, using aggregated data only.

## 3. How long cookies last

Session cookies are deleted when you close your browser. Persistent cookies last from 1 day to 2 years, depending on their purpose, unless you delete them earlier.

## 4. Third-party cookies

When you choose to sign in with Google, Google may set its own cookies under its own policy. We do not allow advertising networks to set cookies on Storewise.

## 5. Your choices

You can block or delete cookies in your browser settings. Blocking strictly necessary cookies will stop you from signing in. Questions: privacy@storewise.example.
', 'published', '2025-09-13T00:00:00Z', '2025-09-13T00:00:00Z'),
  ('gdpr-compliance', 1, 'How Storewise meets the EU and UK General Data Protection Regulation for the shop owners who use our platform and the people whose data they keep in it.

## 1. Our roles

Storewise is the controller of account, billing and security data about our customers. For the customer and staff records a store keeps in Storewise, the store is the controller and Storewise is its processor, acting only on the store’s documented instructions under our Data Processing Agreement.

## 2. Principles we follow

We design the product around the principles of Article 5 GDPR:

- data minimisation: forms ask only for what the feature needs;
- purpose limitation: we never use store data for our own marketing;
- storage limitation: data of closed accounts is deleted or anonymised within 90 days, billing records excepted;
- integrity and confidentiality: see our Data Security Policy.

## 3. Data subject rights

Individuals can exercise their rights of access, rectification, erasure, restriction, portability and objection by writing to privacy@storewise.example. Where a request concerns a store’s records, we pass it to that store and help it respond within one month.

## 4. Sub-processors and transfers

We keep a list of the sub-processors we use for hosting, email and payments and give customers 30 days notice before adding one. Transfers outside the EEA and UK rely on adequacy decisions or the European Commission’s Standard Contractual Clauses.

## 5. Personal data breaches

If a breach affects personal data, we notify the competent supervisory authority within 72 hours of becoming aware of it, and tell affected customers without undue delay with the information they need to meet their own obligations.

## 6. Records and accountability

We maintain records of processing activities, carry out data protection impact assessments for new high-risk features, and train every employee who handles personal data. Our data protection contact is privacy@storewise.example.
', 'published', '2025-09-16T00:00:00Z', '2025-09-16T00:00:00Z'),
  ('data-security-policy', 1, 'The technical and organisational measures Storewise takes to protect the data of the stores that use our platform.

## 1. Access control

Every request to our database is checked against row-level security rules, so each account can read and change only its own records. Administrative access is limited to named staff, reviewed quarterly and logged.

## 2. Encryption

Data travels over TLS 1.2 or later and is encrypted at rest with AES-256. Passwords are stored only as salted one-way hashes. On the desktop app, sign-in tokens are kept in the operating system’s keychain rather than in plain files.

## 3. Accounts and sessions

You can review your sign-in activity and active sessions in the Security page of your dashboard. Password reset links are single-use and expire quickly.

## 4. Backups and availability

Databases are backed up daily to a separate location and backups are restored in tests every quarter. Our infrastructure is monitored around the clock with a 99.9% uptime target.

## 5. Secure development

Code changes are reviewed by a second engineer and tested automatically before release. Dependencies are scanned for known vulnerabilities, and we welcome reports from security researchers at security@storewise.example.

## 6. Incident response

We keep an incident response plan that is rehearsed yearly. If an incident affects personal data, we notify the supervisory authority within 72 hours and inform affected customers without undue delay.
', 'published', '2025-09-16T00:00:00Z', '2025-09-16T00:00:00Z');


-- A published version is the record of what users were shown: it is never edited or removed.
create or replace function private.legal_versions_keep_published()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status = 'published' then
    raise exception 'a published legal version never changes; publish a new one' using errcode = '42501';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
revoke all on function private.legal_versions_keep_published() from public;
create trigger legal_versions_keep_published before update or delete on private.legal_versions
  for each row execute function private.legal_versions_keep_published();

-- The version in force: the newest published one whose effective date has come.
create or replace function private.current_legal_version(_slug text)
returns private.legal_versions
language sql
stable
security definer
set search_path = ''
as $$
  select v.* from private.legal_versions v
   where v.slug = _slug and v.status = 'published' and v.effective_at <= now()
   order by v.version desc limit 1;
$$;
revoke all on function private.current_legal_version(text) from public;

-- Everyone: one published version of a legal page (the one in force without _version), for the public page and
-- its stable address of each earlier version. Drafts are never returned.
create or replace function public.legal_version(_slug text, _version integer default null)
returns table (slug text, version integer, body_md text, effective_at timestamptz, published_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if _version is null then
    return query select v.slug, v.version, v.body_md, v.effective_at, v.published_at
                   from private.current_legal_version(_slug) v where v.id is not null;
  else
    return query select v.slug, v.version, v.body_md, v.effective_at, v.published_at
                   from private.legal_versions v
                  where v.slug = _slug and v.version = _version and v.status = 'published';
  end if;
end;
$$;
comment on function public.legal_version(text,integer) is 'Anyone: a published version of a legal page, the one in force when no version is given.';
revoke all on function public.legal_version(text,integer) from public;
grant execute on function public.legal_version(text,integer) to anon, authenticated, service_role;

create or replace function public.legal_version_list(_slug text)
returns table (version integer, effective_at timestamptz, published_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select v.version, v.effective_at, v.published_at from private.legal_versions v
   where v.slug = _slug and v.status = 'published' order by v.version desc limit 200;
$$;
comment on function public.legal_version_list(text) is 'Anyone: the published versions of a legal page, newest first (future ones included, with their date).';
revoke all on function public.legal_version_list(text) from public;
grant execute on function public.legal_version_list(text) to anon, authenticated, service_role;

-- Admins: each page's version in force, its draft and the number of versions, for the editor.
create or replace function public.admin_legal_documents()
returns table (slug text, current_version integer, current_effective_at timestamptz, current_body_md text,
               draft_body_md text, draft_updated_at timestamptz, scheduled_version integer, scheduled_effective_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.assert_admin();
  return query
    select s.slug, c.version, c.effective_at, c.body_md, d.body_md, d.updated_at, f.version, f.effective_at
      from unnest(array['privacy-policy', 'terms-of-service', 'cookie-policy', 'gdpr-compliance', 'data-security-policy']) s(slug)
      left join lateral (select * from private.current_legal_version(s.slug)) c on true
      left join private.legal_versions d on d.slug = s.slug and d.status = 'draft'
      left join lateral (select v.version, v.effective_at from private.legal_versions v
                          where v.slug = s.slug and v.status = 'published' and v.effective_at > now()
                          order by v.version desc limit 1) f on true;
end;
$$;
comment on function public.admin_legal_documents() is 'Admins only: each legal page''s version in force, draft and next scheduled version.';
revoke all on function public.admin_legal_documents() from public;
grant execute on function public.admin_legal_documents() to authenticated;

create or replace function public.admin_save_legal_draft(_slug text, _body_md text)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_at timestamptz;
begin
  perform private.assert_admin();
  insert into private.legal_versions as v (slug, body_md, created_by)
  values (_slug, _body_md, (select auth.uid()))
  on conflict (slug) where (status = 'draft')
  do update set body_md = excluded.body_md, updated_at = now(), created_by = excluded.created_by
  returning v.updated_at into v_at;
  return v_at;
end;
$$;
comment on function public.admin_save_legal_draft(text,text) is 'Admins only: saves the page''s draft (one per page); 23514 for an unknown page or an empty or oversized body.';
revoke all on function public.admin_save_legal_draft(text,text) from public;
grant execute on function public.admin_save_legal_draft(text,text) to authenticated;

-- Publishes the page's draft as its next version, in force from _effective_at (not before today, at most a
-- year ahead); the trail records the publication and users who accepted earlier terms get a notice then.
create or replace function public.admin_publish_legal_draft(_slug text, _effective_at timestamptz)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_version integer;
  v_previous integer;
begin
  perform private.assert_admin();
  if _effective_at is null or not isfinite(_effective_at) or _effective_at < date_trunc('day', now()) - interval '1 day'
     or _effective_at > now() + interval '1 year' then
    raise exception 'the effective date must be from today to a year ahead' using errcode = '22023';
  end if;
  perform 1 from private.legal_versions v where v.slug = _slug for update;
  if not exists (select 1 from private.legal_versions v where v.slug = _slug and v.status = 'draft') then
    raise exception 'there is no draft of % to publish', coalesce(_slug, 'null') using errcode = '22023';
  end if;
  select max(v.version) into v_previous from private.legal_versions v where v.slug = _slug;
  v_version := coalesce(v_previous, 0) + 1;
  update private.legal_versions v
     set status = 'published', version = v_version, effective_at = _effective_at, published_at = now(), updated_at = now()
   where v.slug = _slug and v.status = 'draft';
  insert into private.platform_setting_changes (actor_id, subject, before, after)
  values ((select auth.uid()), 'legal:' || _slug, jsonb_build_object('version', v_previous),
          jsonb_build_object('version', v_version, 'effective_at', _effective_at));
  return v_version;
end;
$$;
comment on function public.admin_publish_legal_draft(text,timestamp with time zone) is 'Admins only: the draft becomes the next version of the page, in force from the effective date; recorded in the trail.';
revoke all on function public.admin_publish_legal_draft(text,timestamp with time zone) from public;
grant execute on function public.admin_publish_legal_draft(text,timestamp with time zone) to authenticated;

-- ==== Notices of changed terms ============================================================================

create table private.legal_acknowledgements (
  user_id uuid not null,
  slug text not null,
  version integer not null,
  acknowledged_at timestamp with time zone default now() not null,
  constraint legal_acknowledgements_pkey primary key (user_id, slug),
  constraint legal_acknowledgements_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint legal_acknowledgements_slug_check check (slug in ('privacy-policy', 'terms-of-service', 'cookie-policy', 'gdpr-compliance', 'data-security-policy'))
);
alter table private.legal_acknowledgements enable row level security;
comment on table private.legal_acknowledgements is 'The newest version of each legal page a user has seen the notice of; a user accepted the versions in force when they signed up.';

-- The signed-in user's changed terms: the Terms of Service and the Privacy Policy in force now, when that version
-- took effect after the user signed up (they accepted an earlier one) and they have not dismissed its notice.
create or replace function public.my_legal_notices()
returns table (slug text, version integer, effective_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select c.slug, c.version, c.effective_at
    from unnest(array['terms-of-service', 'privacy-policy']) s(slug)
    cross join lateral private.current_legal_version(s.slug) c
    join auth.users u on u.id = (select auth.uid())
   where c.id is not null and c.effective_at > u.created_at
     and not exists (select 1 from private.legal_acknowledgements a
                      where a.user_id = u.id and a.slug = c.slug and a.version >= c.version);
$$;
comment on function public.my_legal_notices() is 'The signed-in user''s legal pages that changed since they accepted them and whose notice they have not dismissed.';
revoke all on function public.my_legal_notices() from public;
grant execute on function public.my_legal_notices() to authenticated;

create or replace function public.acknowledge_legal_version(_slug text, _version integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    raise exception 'sign in first' using errcode = '42501';
  end if;
  if not exists (select 1 from private.legal_versions v where v.slug = _slug and v.version = _version and v.status = 'published') then
    raise exception 'no published version % of %', coalesce(_version::text, 'null'), coalesce(_slug, 'null') using errcode = '22023';
  end if;
  insert into private.legal_acknowledgements as a (user_id, slug, version) values (v_uid, _slug, _version)
  on conflict (user_id, slug) do update set version = greatest(a.version, excluded.version), acknowledged_at = now();
end;
$$;
comment on function public.acknowledge_legal_version(text,integer) is 'The signed-in user dismisses the notice of a changed legal page (records the version read).';
revoke all on function public.acknowledge_legal_version(text,integer) from public;
grant execute on function public.acknowledge_legal_version(text,integer) to authenticated;

-- ==== The public state ====================================================================================

-- Everyone (the prerendered public pages read it after their first paint, the dashboard on load): the banner
-- while its window is open, read-only mode, the announcement bar, the status line (the platform's real state:
-- read-only or a critical banner override the admin's line), support promises and FAQ, and each legal page's
-- version in force. Nothing private: no sender, no sign-up mode, no draft.
create or replace function public.public_site_state()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'banner', case when s.banner_text <> '' and (s.banner_starts_at is null or s.banner_starts_at <= now())
                        and (s.banner_ends_at is null or s.banner_ends_at > now())
                   then jsonb_build_object('text', s.banner_text, 'severity', s.banner_severity, 'ends_at', s.banner_ends_at) end,
    'read_only', case when s.read_only then jsonb_build_object('message', s.read_only_message) end,
    'announcement', case when s.announcement_text <> '' then jsonb_build_object('text', s.announcement_text, 'link', nullif(s.announcement_link, '')) end,
    'status', case
                when s.read_only then jsonb_build_object('level', 'maintenance', 'text', 'Read-only maintenance')
                when s.banner_text <> '' and s.banner_severity = 'critical' and (s.banner_starts_at is null or s.banner_starts_at <= now())
                     and (s.banner_ends_at is null or s.banner_ends_at > now())
                  then jsonb_build_object('level', 'incident', 'text', 'Service disruption')
                else jsonb_build_object('level', 'ok', 'text', s.status_line) end,
    'support', jsonb_build_object('response_hours', s.support_response_hours, 'email', s.support_email),
    'faq', s.faq,
    'legal', (select coalesce(jsonb_object_agg(l.slug, jsonb_build_object('version', c.version, 'effective_at', c.effective_at)), '{}'::jsonb)
                from unnest(array['privacy-policy', 'terms-of-service', 'cookie-policy', 'gdpr-compliance', 'data-security-policy']) l(slug)
                cross join lateral private.current_legal_version(l.slug) c where c.id is not null))
  from private.platform_settings s where s.id;
$$;
comment on function public.public_site_state() is 'Anyone: what the public site and the dashboard show from the platform settings (banner, read-only, announcement, status, support, FAQ, legal versions in force).';
revoke all on function public.public_site_state() from public;
grant execute on function public.public_site_state() to anon, authenticated, service_role;

-- ==== Sign-up mode ========================================================================================

-- GoTrue's before-user-created hook (hosted: Authentication > Hooks, a Postgres function; the embedded auth service
-- calls it before every sign-up, OAuth or OTP user it creates). Open: everyone; invitation-only: an address
-- with a pending invitation; closed: nobody. Refusals are GoTrue's hook error object, answered with 403.
create or replace function public.hook_before_user_created(event jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_mode text := coalesce((select s.signup_mode from private.platform_settings s where s.id), 'open');
  v_email text := lower(btrim(coalesce(event -> 'user' ->> 'email', '')));
begin
  if v_mode = 'open' then
    return '{}'::jsonb;
  end if;
  if v_mode = 'invitation_only' and v_email <> '' and exists (
       select 1 from public.invitations i
        where lower(i.email::text) = v_email and i.accepted_at is null and i.revoked_at is null and i.expires_at > now()) then
    return '{}'::jsonb;
  end if;
  return jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message',
    case v_mode when 'closed' then 'Sign-ups are closed for now. Existing accounts can still sign in.'
         else 'Storewise is invitation-only for now: sign up with the address your invitation was sent to.' end));
end;
$$;
comment on function public.hook_before_user_created(jsonb) is 'Auth hook: refuses new users while sign-ups are closed, or invitation-only without a pending invitation (docs/adr/0260). On hosted Supabase grant execute to supabase_auth_admin and enable it under Authentication > Hooks.';
revoke all on function public.hook_before_user_created(jsonb) from public;
grant execute on function public.hook_before_user_created(jsonb) to service_role;

grant select on table private.platform_settings to service_role;
