/**
 * An owner deletes the business over HTTP with supabase-js (docs/adr/0220), and everything that must be refused is:
 * a manager, another business's owner, a wrong name, a stale password-only token of an owner with an authenticator,
 * the run by anyone but the scheduler, the erasure of a held deletion. The owner's request sets the subscription to
 * end at the period end at the payment provider (the local Stripe stand-in), a cancel renews it, and the run after
 * the 30 days cancels it at the provider, erases the personal data and keeps the fiscal records, with a proof log
 * the admin reads. A shop erases and exports one of its customers; another business cannot.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards, invoke, payCheckout, signedIn } from '../helpers/billing';
import { createTestClient, startStack, type StackHandle } from '../helpers/stack';
import { seedUsers } from '../db/support/seed-ids';
import { uniqueEmail } from './auth-helpers';
import { pngBlob } from './storage-helpers';

let stack: StackHandle;
let owner: SupabaseClient;
let manager: SupabaseClient;
let otherOwner: SupabaseClient;
let business = '';
let name = '';

const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();
const deletion = async () => (await stack.db.query<{ state: string; legal_hold: boolean }>(
  'select state, legal_hold from private.business_deletions where business_id = $1', [business])).rows[0];
const providerSubscription = () => {
  const state = stack.stack.payments?.state;
  const customer = Object.values(state?.customers ?? {}).find((c) => c.metadata.business_id === business)?.id;
  return Object.values(state?.subscriptions ?? {}).find((s) => s.customer === customer);
};

beforeAll(async () => {
  stack = await startStack();
  owner = createTestClient(stack);
  otherOwner = createTestClient(stack);
  manager = createTestClient(stack);
  await signedIn(owner, seedUsers.owner3.email, seedUsers.owner3.password);
  await signedIn(otherOwner, seedUsers.owner1.email, seedUsers.owner1.password);
  const row = (await stack.db.query<{ id: string; name: string }>('select id, name from public.businesses where owner_id = $1', [seedUsers.owner3.id])).rows[0];
  business = row?.id ?? '';
  name = row?.name ?? '';
  const managerEmail = uniqueEmail('deletion-manager');
  const { data } = await createTestClient(stack, 'service').auth.admin.createUser({ email: managerEmail, password: 'manager-password-1', email_confirm: true });
  await stack.db.query(`insert into public.business_members (business_id, user_id, role) values ($1, $2, 'manager')`, [business, data.user!.id]);
  await signedIn(manager, managerEmail, 'manager-password-1');
  // A paid subscription at the local provider, as an owner buys it.
  const checkout = await invoke<{ url: string }>(owner, 'billing-checkout', { plan: 'Starter' });
  expect(checkout.status).toBe(200);
  await payCheckout(checkout.body.url, cards.ok);
  await stack.stack.payments?.idle();
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

describe('who may delete a business', () => {
  it('refuses a manager, through the function and the database alike', async () => {
    const asked = await invoke(manager, 'business-deletion', { action: 'request', business_id: business, confirm_name: name });
    expect(asked).toEqual({ status: 403, body: { error: 'Permission denied: only the owner can delete the business.' } });
    const direct = await manager.rpc('request_business_deletion', { _business_id: business, _confirm_name: name });
    expect(direct.error?.code).toBe('42501');
    expect(await deletion()).toBeUndefined();
  });

  it('refuses another business’s owner as if the business did not exist, and a wrong or missing name', async () => {
    expect(await invoke(otherOwner, 'business-deletion', { action: 'request', business_id: business, confirm_name: name }))
      .toEqual({ status: 404, body: { error: 'No such business.' } });
    expect(await invoke(owner, 'business-deletion', { action: 'request', business_id: business, confirm_name: `${name}x` }))
      .toEqual({ status: 400, body: { error: 'Type the business\'s name exactly to confirm the deletion.' } });
    const bad = await invoke(owner, 'business-deletion', { action: 'request', business_id: 'not-a-uuid' });
    expect(bad.status).toBe(400);
    expect(await deletion()).toBeUndefined();
  });

  it('refuses the run to anyone but the scheduler', async () => {
    expect((await invoke(owner, 'business-deletion', { action: 'run' })).status).toBe(403);
  });
});

describe('an owner with an authenticator', () => {
  let aal2: SupabaseClient;

  it('is refused with a stale password-only token, and served with the second factor', async () => {
    aal2 = createTestClient(stack);
    await signedIn(aal2, seedUsers.owner3.email, seedUsers.owner3.password);
    const { data: factor } = await aal2.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Owner phone' });
    expect((await aal2.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: code(factor!.totp.secret) })).error).toBeNull();
    // A token taken before the factor existed is still a valid JWT, at aal1.
    const stale = createTestClient(stack);
    await signedIn(stale, seedUsers.owner3.email, seedUsers.owner3.password);
    const refused = await invoke(stale, 'business-deletion', { action: 'request', business_id: business, confirm_name: name });
    expect(refused.status).toBe(403);
    expect((await stale.rpc('request_business_deletion', { _business_id: business, _confirm_name: name })).error?.code).toBe('42501');
    expect(await deletion()).toBeUndefined();

    const asked = await invoke<{ erase_after: string; subscription: string }>(aal2, 'business-deletion',
      { action: 'request', business_id: business, confirm_name: ` ${name} ` });
    expect(asked.status).toBe(200);
    expect(asked.body.subscription).toBe('updated');
    const days = (new Date(asked.body.erase_after).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(await deletion()).toEqual({ state: 'pending', legal_hold: false });
    await stack.stack.payments?.idle();
    expect(providerSubscription()?.cancel_at_period_end).toBe(true);
    // Every member sees the banner; a stale token cannot cancel.
    expect((await manager.rpc('business_deletion_status', { _business_id: business })).data).toMatchObject({ state: 'pending' });
    expect((await invoke(stale, 'business-deletion', { action: 'cancel', business_id: business })).status).toBe(403);
    expect((await invoke(manager, 'business-deletion', { action: 'cancel', business_id: business })).status).toBe(403);
  });

  it('cancels: the business stays, the subscription renews again, the trail has both', async () => {
    expect(await invoke(aal2, 'business-deletion', { action: 'cancel', business_id: business }))
      .toEqual({ status: 200, body: { canceled: true, subscription: 'updated' } });
    expect(await deletion()).toEqual({ state: 'canceled', legal_hold: false });
    expect(providerSubscription()?.cancel_at_period_end).toBe(false);
    expect((await aal2.rpc('business_deletion_status', { _business_id: business })).data).toBeNull();
    expect((await invoke(aal2, 'business-deletion', { action: 'cancel', business_id: business })).status).toBe(409);
    const { data: trail } = await aal2.from('activity').select('kind').eq('business_id', business).like('kind', 'business.deletion%');
    expect(trail?.map((row) => row.kind).sort()).toEqual(['business.deletion_canceled', 'business.deletion_requested']);
  });

  it('after 30 days: held by an admin, nothing happens; released, the run cancels at the provider and erases', async () => {
    expect((await invoke(aal2, 'business-deletion', { action: 'request', business_id: business, confirm_name: name })).status).toBe(200);
    await stack.db.query(`update private.business_deletions set erase_after = now() - interval '1 minute' where business_id = $1`, [business]);
    const admin = createTestClient(stack);
    await signedIn(admin, 'admin@storewise.local', 'storewise-admin');
    expect((await aal2.rpc('admin_business_deletions')).error?.code).toBe('42501');
    expect((await admin.rpc('admin_set_legal_hold', { _business_id: business, _hold: true })).error?.code).toBe('22023');
    expect((await admin.rpc('admin_set_legal_hold', { _business_id: business, _hold: true, _reason: 'Tax audit 2026' })).error).toBeNull();
    const service = createTestClient(stack, 'service');
    expect(await invoke(service, 'business-deletion', { action: 'run' })).toEqual({ status: 200, body: { erased: 0 } });
    expect((await service.rpc('business_erasure_step', { _business_id: business })).error?.code).toBe('P0001');
    expect(providerSubscription()?.status).not.toBe('canceled');

    // The business's files: a logo, a product picture, an export, a support ticket's attachment; another
    // business's logo must stay.
    const product = (await stack.db.query<{ id: string }>('select id from public.products where business_id = $1 limit 1', [business])).rows[0]?.id ?? business;
    const ticket = (await stack.db.query<{ id: string }>(
      `insert into public.support_tickets (user_id, business_id, subject, message)
       values ($1, $2, 'Printer', 'It jams') returning id`, [seedUsers.owner3.id, business])).rows[0]!.id;
    const otherBusiness = (await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [seedUsers.owner1.id])).rows[0]!.id;
    const files: [string, string, Blob][] = [
      ['business-logos', `${business}/logo.png`, pngBlob()],
      ['product-images', `${business}/${product}/front.png`, pngBlob()],
      ['exports', `${business}/storewise-export-20260101-000000.zip`, new Blob(['PK'], { type: 'application/zip' })],
      ['support-attachments', `${ticket}/receipt.png`, pngBlob()],
      ['business-logos', `${otherBusiness}/logo.png`, pngBlob()],
    ];
    for (const [bucket, path, body] of files) {
      expect((await service.storage.from(bucket).upload(path, body, { upsert: true })).error, `${bucket}/${path}`).toBeNull();
    }

    expect((await admin.rpc('admin_set_legal_hold', { _business_id: business, _hold: false })).error).toBeNull();
    expect(await invoke(service, 'business-deletion', { action: 'run' })).toEqual({ status: 200, body: { erased: 1 } });
    // Files and rows went together: none of the business's files is left, through the API or in the table.
    for (const [bucket, path] of files.slice(0, 4)) {
      expect((await service.storage.from(bucket).download(path)).error, `${bucket}/${path}`).not.toBeNull();
    }
    expect((await service.storage.from('business-logos').download(`${otherBusiness}/logo.png`)).error).toBeNull();
    expect(Number((await stack.db.query<{ n: string }>(
      `select count(*) as n from storage.objects where name like $1 || '/%' or name like $2 || '/%'`, [business, ticket])).rows[0]?.n)).toBe(0);
    await stack.stack.payments?.idle();
    expect(providerSubscription()?.status).toBe('canceled');
    expect(await deletion()).toEqual({ state: 'retained', legal_hold: false });
    // The manager is gone; the owner sees the business suspended, the way a suspended business shows.
    expect((await manager.from('businesses').select('id').eq('id', business)).data).toEqual([]);
    const { data: queue } = await admin.rpc('admin_business_deletions');
    expect(queue).toEqual(expect.arrayContaining([expect.objectContaining({ business_id: business, state: 'retained', legal_hold: false })]));
    const { data: proofs } = await admin.rpc('admin_business_erasure_proofs', { _business_id: business });
    const what = (proofs as { what: string }[]).map((p) => p.what);
    expect(what).toEqual(expect.arrayContaining(['legal hold placed', 'legal hold lifted', 'subscription canceled at the provider',
      'erasure begun, business suspended', 'staff memberships, invitations and names erased', 'support tickets erased',
      'uploads removed from business-logos', 'uploads removed from product-images', 'uploads removed from exports',
      'uploads removed from support-attachments', 'uploads removed',
      'personal data erased; fiscal records kept 10 years']));
    expect(what.indexOf('subscription canceled at the provider')).toBeLessThan(what.indexOf('erasure begun, business suspended'));
    expect(what.indexOf('uploads removed')).toBeLessThan(what.indexOf('support tickets erased'));
    const logos = (proofs as { what: string; rows_affected: number }[]).filter((p) => p.what === 'uploads removed from business-logos');
    expect(logos.reduce((sum, p) => sum + p.rows_affected, 0)).toBe(1);
  });

  it('lets the owner of the erased business delete their own login', async () => {
    const deleted = await invoke(aal2, 'delete-account', {});
    expect(deleted).toEqual({ status: 200, body: { deleted: true } });
    const { rows } = await stack.db.query<{ deleted_at: string | null; owner_id: string }>(
      'select u.deleted_at, b.owner_id from auth.users u join public.businesses b on b.owner_id = u.id where b.id = $1', [business]);
    // Soft-deleted: the retained fiscal records keep their owner's id.
    expect(rows[0]?.owner_id).toBe(seedUsers.owner3.id);
    expect(rows[0]?.deleted_at).not.toBeNull();
  });
});

describe('a shop erases or exports one of its customers', () => {
  it('erases name, email and phone; receipts keep the anonymous customer; the trail is redacted', async () => {
    const ownerBusiness = (await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [seedUsers.owner1.id])).rows[0]!.id;
    const { data: created } = await otherOwner.from('customers')
      .insert({ business_id: ownerBusiness, name: 'Erin Erasable', email: 'erin@example.com', phone: '5550100111' }).select('id').single();
    const id = (created as { id: string }).id;
    const exported = await otherOwner.rpc('export_customer', { _customer_id: id });
    expect(exported.data).toMatchObject({ format: 'storewise-customer/1', customer: { name: 'Erin Erasable', email: 'erin@example.com' }, sales: [] });
    // Another business cannot see, export or erase it.
    const outsider = createTestClient(stack);
    await signedIn(outsider, seedUsers.owner2.email, seedUsers.owner2.password);
    // Not found is a 404 (PT404), as for an id that does not exist at all; never a 500 (ADR 0331).
    for (const customer of [id, crypto.randomUUID()]) {
      for (const fn of ['export_customer', 'erase_customer'] as const) {
        expect(await outsider.rpc(fn, { _customer_id: customer }), `${fn} ${customer}`)
          .toMatchObject({ status: 404, error: { code: 'PT404', message: 'no such customer' } });
      }
    }

    expect((await otherOwner.rpc('erase_customer', { _customer_id: id })).error).toBeNull();
    const { data: after } = await otherOwner.from('customers').select('name, email, phone, erased_at').eq('id', id).single();
    expect(after).toMatchObject({ name: 'Anonymous customer', email: null, phone: null });
    expect((after as { erased_at: string | null }).erased_at).not.toBeNull();
    const { rows: trail } = await stack.db.query<{ text: string }>(
      `select coalesce(before::text, '') || coalesce(after::text, '') as text from public.activity where entity_id = $1`, [id]);
    expect(trail.length).toBeGreaterThanOrEqual(2);
    for (const row of trail) expect(row.text).not.toMatch(/Erin|erin@example\.com|5550100111/);
  });
});
