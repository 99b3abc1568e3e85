/**
 * Emailing a receipt (issue 13, docs/adr/0132) over HTTP with supabase-js: request_receipt_email queues the receipt
 * of a sale the caller may read and the local relay delivers it; a cashier of another business, a cashier without
 * access to the sale's store and anon are refused and queue nothing; a malformed address is a 400; a sale is
 * emailed at most 3 times. The queued params carry the receipt's figures and never the cost.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient } from '../helpers/stack';
import { startCatalogWorld, type CatalogWorld } from './support/catalog-world';

let w: CatalogWorld;
/** A cashier of owner2's business (business B), joined through a real invitation. */
let foreignCashier: SupabaseClient;
let downtownSale = '';
let downtownReceipt = '';
let riversideSale = '';

async function must<T>(promise: PromiseLike<{ data: T; error: { message: string } | null }>): Promise<T> {
  const { data, error } = await promise;
  if (error) throw new Error(error.message);
  return data;
}

async function sellAt(client: SupabaseClient, prefix: string) {
  const [{ id: register } = { id: '' }] = await w.rows<{ id: string }>('select id from public.registers where receipt_prefix = $1', [prefix]);
  const shift = await must(client.rpc('open_shift', { _register_id: register, _opening_float: 5000 })) as { id: string };
  return await must(client.rpc('post_sale', { _payload: {
    id: randomUUID(), register_id: register, shift_id: shift.id,
    lines: [{ variant_id: w.f.variant, qty: 1 }], tenders: [{ kind: 'cash', amount: 1524, tendered: 2000 }],
  } })) as { id: string; receipt_number: string };
}

const emailsLogged = async (saleId: string) => (await w.rows<{ n: number }>(
  `select count(*)::int as n from public.activity where kind = 'receipt.emailed' and entity_id = $1`, [saleId]))[0]?.n ?? -1;

async function delivered(to: string) {
  for (let i = 0; i < 100; i += 1) {
    const mail = w.stack.stack.mailbox.list().find((m) => m.To[0]?.Address === to);
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

beforeAll(async () => {
  w = await startCatalogWorld();
  const sale = await sellAt(w.clients.cashier, 'DT1');
  downtownSale = sale.id;
  downtownReceipt = sale.receipt_number;
  riversideSale = (await sellAt(w.clients.owner, 'RS1')).id;

  const email = 'cashier-b@receipt.storewise.test';
  const password = 'receipt-email-pw';
  const service = createTestClient(w.stack, 'service');
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { full_name: 'Cashier B' } });
  if (created.error) throw new Error(created.error.message);
  const invitation = await must(w.clients.other.rpc('create_invitation', {
    _business_id: w.businessB, _email: email, _role: 'cashier', _all_stores: true, _store_ids: [],
  })) as { token: string }[];
  foreignCashier = createTestClient(w.stack);
  const signedIn = await foreignCashier.auth.signInWithPassword({ email, password });
  if (signedIn.error) throw new Error(signedIn.error.message);
  await must(foreignCashier.rpc('accept_invitation', { _token: invitation[0]?.token }));
}, 300_000);

afterAll(async () => {
  await w?.stack.stop();
});

describe('request_receipt_email', () => {
  it('a cashier of the store emails the receipt; the relay delivers it with its lines, taxes and tenders', async () => {
    const to = 'customer@receipt.storewise.test';
    const { data, error } = await w.clients.cashier.rpc('request_receipt_email', { _sale_id: downtownSale, _email: ` ${to} ` });
    expect(error).toBeNull();
    expect(data).toEqual({ queued: true, receipt_number: downtownReceipt });
    const mail = await delivered(to);
    expect(mail?.Subject).toContain(downtownReceipt);
    expect(mail?.Text).toContain('Total: $15.24');
    expect(mail?.Text).toContain('Cash: $20.00');
    expect(mail?.Text).toContain('Change: $4.76');
    expect(mail?.Text).toMatch(/Tax 8\.875%: \$1\.24/);
    // The line shows qty x price, which is what the subtotal adds up: 14.00 + 1.24 tax = 15.24 (issue 25).
    expect(mail?.Text).toMatch(/1(\.000)? x \$14\.00: \$14\.00/);
    expect(mail?.Text).toContain('Subtotal: $14.00');
    expect(await emailsLogged(downtownSale)).toBe(1);
  });

  it('a cashier of another business cannot send a receipt of this one, and queues nothing', async () => {
    const { error } = await foreignCashier.rpc('request_receipt_email', { _sale_id: downtownSale, _email: 'x@receipt.storewise.test' });
    expect(error?.code).toBe('42501');
    // The owner of the other business neither.
    const other = await w.clients.other.rpc('request_receipt_email', { _sale_id: downtownSale, _email: 'x@receipt.storewise.test' });
    expect(other.error?.code).toBe('42501');
    // A platform admin is not a member of the business: no receipts of its customers either.
    const admin = await w.clients.admin.rpc('request_receipt_email', { _sale_id: downtownSale, _email: 'x@receipt.storewise.test' });
    expect(admin.error?.code).toBe('42501');
    expect(await emailsLogged(downtownSale)).toBe(1);
    expect(await w.rows(`select 1 from public.email_outbox where to_email = 'x@receipt.storewise.test'`)).toEqual([]);
  });

  it("a cashier without access to the sale's store is refused; an unknown sale answers the same", async () => {
    const riverside = await w.clients.cashier.rpc('request_receipt_email', { _sale_id: riversideSale, _email: 'y@receipt.storewise.test' });
    expect(riverside.error?.code).toBe('42501');
    const unknown = await w.clients.cashier.rpc('request_receipt_email', { _sale_id: randomUUID(), _email: 'y@receipt.storewise.test' });
    expect(unknown.error?.code).toBe('42501');
    expect(unknown.error?.message).toBe(riverside.error?.message);
    // The owner may: Riverside is theirs.
    expect((await w.clients.owner.rpc('request_receipt_email', { _sale_id: riversideSale, _email: 'y@receipt.storewise.test' })).error).toBeNull();
    expect(await emailsLogged(riversideSale)).toBe(1);
  });

  it('anon is refused; a malformed address is a 400 with a plain message', async () => {
    const anon = await w.clients.anon.rpc('request_receipt_email', { _sale_id: downtownSale, _email: 'z@receipt.storewise.test' });
    expect(anon.error).not.toBeNull();
    const bad = await w.clients.cashier.rpc('request_receipt_email', { _sale_id: downtownSale, _email: 'not an address' });
    expect(bad.error?.code).toBe('22023');
    expect(bad.error?.message).toBe('enter a valid email address');
    expect(await emailsLogged(downtownSale)).toBe(1);
  });

  it('a receipt is emailed at most 3 times', async () => {
    for (const n of [2, 3]) {
      expect((await w.clients.manager.rpc('request_receipt_email', { _sale_id: downtownSale, _email: `again${n}@receipt.storewise.test` })).error).toBeNull();
    }
    const fourth = await w.clients.manager.rpc('request_receipt_email', { _sale_id: downtownSale, _email: 'again4@receipt.storewise.test' });
    expect(fourth.error?.code).toBe('SW003');
    expect(await emailsLogged(downtownSale)).toBe(3);
  });

  it('the queued params carry the posted figures, taxes per rate and no cost; the trail keeps no address', async () => {
    const [row] = await w.rows<{ p: Record<string, unknown> & { taxes: { tax: number }[] } }>(
      'select private.receipt_email_params(s) as p from public.sales s where s.id = $1', [downtownSale]);
    expect(row?.p).toMatchObject({ receipt_number: downtownReceipt, total: 1524, tax_total: 124, store_name: expect.any(String) });
    expect(row?.p.taxes.reduce((sum, t) => sum + t.tax, 0)).toBe(124);
    expect(JSON.stringify(row?.p)).not.toMatch(/cost/);
    const trail = await w.rows<{ after: unknown }>(`select after from public.activity where kind = 'receipt.emailed'`);
    expect(JSON.stringify(trail)).not.toContain('@');
  });
  it("the email shows the business logo by its absolute public URL on the project, which serves the picture (docs/adr/0321)", async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const uploaded = await w.clients.owner.storage.from('business-logos')
      .upload(`${w.businessA}/logo`, new Blob([png], { type: 'image/png' }), { upsert: true, contentType: 'image/png' });
    expect(uploaded.error).toBeNull();
    const to = 'logo@receipt.storewise.test';
    // The other store's sale (downtown's has its three emails counted by the cap test below).
    expect((await w.clients.owner.rpc('request_receipt_email', { _sale_id: riversideSale, _email: to })).error).toBeNull();
    const mail = await delivered(to);
    const src = /<img src="([^"]+)"/.exec(mail?.HTML ?? '')?.[1]?.replace(/&#38;/g, '&');
    expect(src).toMatch(new RegExp(`^${w.stack.apiUrl}/storage/v1/object/public/business-logos/${w.businessA}/logo\\?v=\\d+$`));
    const picture = await fetch(src!);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer()).equals(png)).toBe(true);
    await w.clients.owner.storage.from('business-logos').remove([`${w.businessA}/logo`]);
  });
});
