// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/pos.sql: customers
//   supabase/schemas/workspace.sql: erase_customer() export_customer()
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

export const PAGE_SIZE = 50;

const customerSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  created_at: z.string(),
  erased_at: z.string().nullable(),
});
export type Customer = z.infer<typeof customerSchema>;

/** What is typed in the search box, made safe for a PostgREST ilike filter (no wildcards of the user's). */
export const searchTerm = (text: string) => text.trim().slice(0, 100).replace(/[%_\\,()*]/g, ' ');

/** One page of the business's customers by name, optionally those whose name, email or phone contains the text. */
export async function fetchCustomers(supabase: StorewiseClient, businessId: string, search: string, page: number): Promise<Customer[]> {
  let query = supabase.from('customers').select('id, name, email, phone, created_at, erased_at').eq('business_id', businessId);
  const term = searchTerm(search);
  if (term) query = query.or(`name.ilike.*${term}*,email.ilike.*${term}*,phone.ilike.*${term}*`);
  const { data, error } = await query.order('name').order('id').range(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE - 1);
  if (error) throw new Error(error.message);
  return z.array(customerSchema).parse(data ?? []);
}

/**
 * One customer of this business. RLS lets someone who manages several businesses read the customers of each, so
 * the business is part of the filter: a customer of another business is "not found" here, not opened (and
 * exported or erased) under the wrong one.
 */
export async function fetchCustomer(supabase: StorewiseClient, businessId: string, id: string): Promise<Customer | null> {
  const { data, error } = await supabase.from('customers').select('id, name, email, phone, created_at, erased_at')
    .eq('business_id', businessId).eq('id', id).maybeSingle();
  if (error) throw new Error(error.message);
  return data ? customerSchema.parse(data) : null;
}

/** What the shop holds about the customer (GDPR Art. 15/20), as export_customer returns it. */
export async function exportCustomer(supabase: StorewiseClient, id: string): Promise<unknown> {
  const { data, error } = await supabase.rpc('export_customer', { _customer_id: id });
  if (error) throw new Error(error.message);
  return data;
}

/** Name, email and phone erased (GDPR Art. 17); receipts keep an anonymous customer. */
export async function eraseCustomer(supabase: StorewiseClient, id: string): Promise<void> {
  const { error } = await supabase.rpc('erase_customer', { _customer_id: id });
  if (error) throw new Error(error.message);
}
