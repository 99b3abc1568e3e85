/*
 * Issue 30, System Settings and Content Management (20261201150000_admin_platform_settings.sql, ADR 0260, 0261),
 * over HTTP with supabase-js: only admins read or change settings and drafts; every change is in the trail with
 * before and after; bad values get 4xx; the public state shows the banner in its window; the sign-up mode holds
 * on the embedded auth service; a published legal version is in force from its date and the old one stays readable.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalDocumentToMarkdown } from '../../shared/features/legal/legal-markdown';
import { termsOfService } from '../../shared/features/legal/documents/terms-of-service';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';

interface SiteState { banner: unknown; read_only: unknown; status: { level: string; text: string }; support: unknown; faq: unknown }

const password = 'Settings-pass-1234';
let stack: StackHandle;
let admin: SupabaseClient;
let owner: SupabaseClient;
let anon: SupabaseClient;
let service: SupabaseClient;

async function signedIn(email: string): Promise<{ client: SupabaseClient; id: string }> {
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { full_name: email.split('@')[0] } });
  if (created.error) throw new Error(created.error.message);
  const client = createTestClient(stack);
  const signed = await client.auth.signInWithPassword({ email, password });
  if (signed.error) throw new Error(signed.error.message);
  return { client, id: created.data.user.id };
}

beforeAll(async () => {
  stack = await startStack({ seed: false, autoconfirm: true });
  service = createTestClient(stack, 'service');
  anon = createTestClient(stack);
  const a = await signedIn('root@settings.test');
  await stack.db.query(`insert into private.user_roles (user_id, role) values ($1, 'admin')`, [a.id]);
  admin = a.client;
  owner = (await signedIn('shop@settings.test')).client;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

describe('platform settings', () => {
  it('refuses non-admins reading or changing settings, the trail and drafts', async () => {
    for (const client of [owner, anon]) {
      expect((await client.rpc('admin_platform_settings')).error?.code).toBe('42501');
      expect((await client.rpc('admin_update_platform_settings', { _changes: { signup_mode: 'closed' } })).error?.code).toBe('42501');
      expect((await client.rpc('admin_platform_setting_changes', {})).error?.code).toBe('42501');
      expect((await client.rpc('admin_legal_documents')).error?.code).toBe('42501');
      expect((await client.rpc('admin_save_legal_draft', { _slug: 'terms-of-service', _body_md: 'x' })).error?.code).toBe('42501');
      expect((await client.rpc('admin_publish_legal_draft', { _slug: 'terms-of-service', _effective_at: new Date().toISOString() })).error?.code).toBe('42501');
    }
    // The tables are not exposed at all: private schema.
    expect((await owner.schema('private' as 'public').from('platform_settings').select('*')).error).not.toBeNull();
    const settings = (await admin.rpc('admin_platform_settings')).data as Record<string, unknown>;
    expect(settings.signup_mode).toBe('open');
  }, 120_000);

  it('changes settings with before and after in the trail, and refuses bad values with 4xx', async () => {
    const changed = await admin.rpc('admin_update_platform_settings', { _changes: { trial_days: 14, support_response_hours: 12 } });
    expect(changed.error).toBeNull();
    expect(changed.data).toMatchObject({ trial_days: 14, support_response_hours: 12 });
    const trail = (await admin.rpc('admin_platform_setting_changes', {})).data as { subject: string; before: unknown; after: unknown; actor: string }[];
    expect(trail[0]).toMatchObject({ subject: 'settings', actor: 'root', before: { trial_days: 7, support_response_hours: 24 },
      after: { trial_days: 14, support_response_hours: 12 } });

    const bad = [
      [{ trial_days: 500 }, '23514'],
      [{ signup_mode: 'sometimes' }, '23514'],
      [{ support_email: 'not an email' }, '23514'],
      [{ trial_days: 'many' }, '22023'],
      [{ nonsense: 1 }, '22023'],
      [{ faq: [{ question: '', answer: 'x' }] }, '23514'],
      [{ banner_starts_at: '2026-12-02T00:00:00Z', banner_ends_at: '2026-12-01T00:00:00Z' }, '23514'],
    ] as const;
    for (const [changes, code] of bad) {
      const result = await admin.rpc('admin_update_platform_settings', { _changes: changes });
      expect(result.error?.code, JSON.stringify(changes)).toBe(code);
      expect(result.status).toBeGreaterThanOrEqual(400);
      expect(result.status).toBeLessThan(500);
    }
    const after = (await admin.rpc('admin_platform_settings')).data as Record<string, unknown>;
    expect(after.trial_days).toBe(14); // nothing of the refused changes was applied
    expect(((await admin.rpc('admin_platform_setting_changes', {})).data as unknown[]).length).toBe(trail.length);
  }, 120_000);

  it('shows the maintenance banner to everyone only inside its window, and read-only mode in the status', async () => {
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const inHour = new Date(Date.now() + 3600_000).toISOString();
    expect((await admin.rpc('admin_update_platform_settings', { _changes: {
      banner_text: 'Maintenance tonight 22:00-23:00 UTC', banner_severity: 'warning', banner_starts_at: hourAgo, banner_ends_at: inHour,
      faq: [{ question: 'Can I export?', answer: 'Yes, as CSV.' }] } })).error).toBeNull();
    const state = (await anon.rpc('public_site_state')).data as SiteState;
    expect(state.banner).toMatchObject({ text: 'Maintenance tonight 22:00-23:00 UTC', severity: 'warning' });
    expect(state.status).toEqual({ level: 'ok', text: 'All Systems Operational' });
    expect(state.support).toEqual({ response_hours: 12, email: 'support@storewise.app' });
    expect(state.faq).toEqual([{ question: 'Can I export?', answer: 'Yes, as CSV.' }]);
    expect(state).not.toHaveProperty('signup_mode');
    expect(JSON.stringify(state)).not.toContain('email_sender_name');

    expect((await admin.rpc('admin_update_platform_settings', { _changes: { banner_starts_at: inHour, banner_ends_at: null } })).error).toBeNull();
    expect(((await anon.rpc('public_site_state')).data as Record<string, unknown>).banner).toBeNull();
    expect((await admin.rpc('admin_update_platform_settings', { _changes: { read_only: true, read_only_message: 'Database upgrade' } })).error).toBeNull();
    const readOnly = (await owner.rpc('public_site_state')).data as SiteState;
    expect(readOnly.read_only).toEqual({ message: 'Database upgrade' });
    expect(readOnly.status.level).toBe('maintenance');
    expect((await admin.rpc('admin_update_platform_settings', { _changes: { read_only: false } })).error).toBeNull();
  }, 120_000);

  it('enforces the sign-up mode on the auth service: closed, invitation-only, open', async () => {
    expect((await admin.rpc('admin_update_platform_settings', { _changes: { signup_mode: 'closed' } })).error).toBeNull();
    const closed = await createTestClient(stack).auth.signUp({ email: 'new1@settings.test', password });
    expect(closed.error?.status).toBe(403);
    expect(closed.error?.message).toMatch(/Sign-ups are closed/);
    const users = await stack.db.query<{ n: number }>(`select count(*)::int as n from auth.users where email = 'new1@settings.test'`);
    expect(users.rows[0]!.n).toBe(0);

    expect((await admin.rpc('admin_update_platform_settings', { _changes: { signup_mode: 'invitation_only' } })).error).toBeNull();
    const uninvited = await createTestClient(stack).auth.signUp({ email: 'new2@settings.test', password });
    expect(uninvited.error?.message).toMatch(/invitation-only/);
    const business = await stack.db.query<{ id: string }>(
      `insert into public.businesses (name, owner_id) select 'Invite Co', id from auth.users where email = 'shop@settings.test' returning id`);
    await stack.db.query(`insert into public.invitations (business_id, email, role) values ($1, 'invited@settings.test', 'cashier')`, [business.rows[0]!.id]);
    const invited = await createTestClient(stack).auth.signUp({ email: 'invited@settings.test', password });
    expect(invited.error).toBeNull();
    expect(invited.data.user?.email).toBe('invited@settings.test');

    expect((await admin.rpc('admin_update_platform_settings', { _changes: { signup_mode: 'open' } })).error).toBeNull();
    expect((await createTestClient(stack).auth.signUp({ email: 'new3@settings.test', password })).error).toBeNull();
  }, 120_000);

  it('starts a trial of the configured length', async () => {
    const trialist = (await signedIn('trial@settings.test')).client;
    const chosen = await trialist.rpc('choose_plan', { _plan_name: 'Starter' });
    expect(chosen.error).toBeNull();
    const plan = chosen.data as { started_at: string; next_billing_date: string };
    const days = (Date.parse(plan.next_billing_date) - Date.parse(plan.started_at)) / 86_400_000;
    expect(Math.round(days)).toBe(14);
  }, 120_000);
});

describe('legal documents', () => {
  it('has version 1 of each page in force: the built-in text', async () => {
    const current = await anon.rpc('legal_version', { _slug: 'terms-of-service' });
    expect(current.error).toBeNull();
    const [v1] = current.data as { version: number; body_md: string; effective_at: string }[];
    expect(v1!.version).toBe(1);
    expect(v1!.body_md).toBe(legalDocumentToMarkdown(termsOfService));
    expect(v1!.effective_at.slice(0, 10)).toBe(termsOfService.updated);
  }, 120_000);

  it('keeps drafts from everyone but admins, publishes with a date, and keeps the old version readable', async () => {
    expect((await admin.rpc('admin_save_legal_draft', { _slug: 'terms-of-service', _body_md: '## 1. New terms\n\nDraft text only admins see.' })).error).toBeNull();
    // Anyone asking for the page gets the version in force, never the draft.
    for (const client of [anon, owner]) {
      const seen = (await client.rpc('legal_version', { _slug: 'terms-of-service' })).data as { body_md: string }[];
      expect(seen[0]!.body_md).not.toContain('Draft text');
      const list = (await client.rpc('legal_version_list', { _slug: 'terms-of-service' })).data as unknown[];
      expect(list).toHaveLength(1);
    }
    const docs = (await admin.rpc('admin_legal_documents')).data as { slug: string; draft_body_md: string | null; current_version: number }[];
    expect(docs.find((d) => d.slug === 'terms-of-service')).toMatchObject({ draft_body_md: expect.stringContaining('Draft text'), current_version: 1 });

    // Bad input is refused with 4xx, and nothing is published.
    expect((await admin.rpc('admin_save_legal_draft', { _slug: 'nope', _body_md: 'x' })).error?.code).toBe('23514');
    expect((await admin.rpc('admin_save_legal_draft', { _slug: 'cookie-policy', _body_md: '   ' })).error?.code).toBe('23514');
    expect((await admin.rpc('admin_publish_legal_draft', { _slug: 'cookie-policy', _effective_at: new Date().toISOString() })).error?.code).toBe('22023');
    expect((await admin.rpc('admin_publish_legal_draft', { _slug: 'terms-of-service', _effective_at: '2020-01-01T00:00:00Z' })).error?.code).toBe('22023');

    const published = await admin.rpc('admin_publish_legal_draft', { _slug: 'terms-of-service', _effective_at: new Date(Date.now() - 1000).toISOString() });
    expect(published.error).toBeNull();
    expect(published.data).toBe(2);
    const now = (await anon.rpc('legal_version', { _slug: 'terms-of-service' })).data as { version: number; body_md: string; effective_at: string }[];
    expect(now[0]).toMatchObject({ version: 2, body_md: expect.stringContaining('Draft text only admins see.') });
    const old = (await anon.rpc('legal_version', { _slug: 'terms-of-service', _version: 1 })).data as { body_md: string }[];
    expect(old[0]!.body_md).toBe(legalDocumentToMarkdown(termsOfService));
    const state = (await anon.rpc('public_site_state')).data as { legal: Record<string, { version: number }> };
    expect(state.legal['terms-of-service']!.version).toBe(2);
    const trail = (await admin.rpc('admin_platform_setting_changes', {})).data as { subject: string; before: unknown; after: { version: number } }[];
    expect(trail[0]).toMatchObject({ subject: 'legal:terms-of-service', before: { version: 1 }, after: { version: 2 } });
    // A published version never changes, even for the database owner's functions' callers.
    await expect(stack.db.query(`update private.legal_versions set body_md = 'edited' where slug = 'terms-of-service' and version = 1`))
      .rejects.toThrow(/never changes/);
  }, 120_000);

  it('tells users who accepted earlier terms, until they dismiss the notice', async () => {
    // The owner signed up before version 2 took effect: the notice is theirs.
    await stack.db.query(`update auth.users set created_at = now() - interval '1 day' where email = 'shop@settings.test'`);
    const notices = (await owner.rpc('my_legal_notices')).data as { slug: string; version: number }[];
    expect(notices).toEqual([expect.objectContaining({ slug: 'terms-of-service', version: 2 })]);
    expect((await owner.rpc('acknowledge_legal_version', { _slug: 'terms-of-service', _version: 9 })).error?.code).toBe('22023');
    expect((await owner.rpc('acknowledge_legal_version', { _slug: 'terms-of-service', _version: 2 })).error).toBeNull();
    expect((await owner.rpc('my_legal_notices')).data).toEqual([]);
    // A user who signed up under version 2 has nothing to be told.
    const fresh = (await signedIn('fresh@settings.test')).client;
    expect((await fresh.rpc('my_legal_notices')).data).toEqual([]);
  }, 120_000);
});
