/**
 * Helpers for the Storage suites: seeded owners' businesses, a cashier added to owner1's business, and
 * small real files (a PNG, a PDF) to upload with storage-js.
 */
import { randomUUID } from 'node:crypto';
import type { StackHandle } from '../helpers/stack';
import { users } from './rest-test-clients';

export async function businessOf(stack: StackHandle, ownerId: string): Promise<string> {
  const result = await stack.db.query<{ id: string }>('select id from public.businesses where owner_id = $1', [ownerId]);
  return result.rows[0]!.id;
}

/** A new user who is a cashier of owner1's business. */
export async function addCashier(stack: StackHandle, businessId: string): Promise<string> {
  const id = randomUUID();
  await stack.db.query(
    `insert into auth.users (id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, email_confirmed_at)
     values ($1, 'authenticated', 'authenticated', $2, '{}', '{"full_name":"Casey Cashier"}', now(), now(), now())`,
    [id, `cashier-${id.slice(0, 8)}@test.local`],
  );
  // The sign-up trigger gave the new user a business of their own; the membership is what matters here.
  await stack.db.query(`insert into public.business_members (business_id, user_id, role) values ($1, $2, 'cashier')`, [businessId, id]);
  return id;
}

/** The smallest valid PNG (1x1, transparent). */
export const pngBytes = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const svgBytes = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>');
export const htmlBytes = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

export function pngBlob(): Blob {
  return new Blob([pngBytes], { type: 'image/png' });
}

export { users };
