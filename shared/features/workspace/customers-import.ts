// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/workspace.sql: preview_customer_import() import_customers() customer_import_rows()
import { z } from 'zod';
import { callWhileBusy } from '../../lib/call-while-busy';
import type { StorewiseClient } from '../../lib/supabase-client';
import type { CustomerCsvRow } from './customers-csv';

/**
 * The customer import (ADR 0370), shaped as the catalog's: a preview (each row new, update with old -> new, or
 * unchanged; every row's problem) and one all-or-nothing write of the whole file. The key is the email.
 */
const change = z.object({ old: z.string().nullable(), new: z.string() });
const rowError = z.object({ row_index: z.number().int(), message: z.string() });
const previewAnswer = z.object({
  rows: z.array(z.object({ row_index: z.number().int(), action: z.enum(['new', 'update', 'same']), changes: z.record(z.string(), change) })),
  problems: z.array(rowError),
});

export type CustomerPreview = z.infer<typeof previewAnswer>;
export type RowError = z.infer<typeof rowError>;

const toError = (error: { message: string }) => new Error(error.message);

export async function previewCustomerFile(supabase: StorewiseClient, businessId: string, rows: CustomerCsvRow[]): Promise<CustomerPreview> {
  return previewAnswer.parse(await callWhileBusy(() => supabase.rpc('preview_customer_import', { _business_id: businessId, _rows: rows }), toError));
}

/** Writes the file; answers the rows' problems (then nothing was written). */
export async function importCustomerFile(supabase: StorewiseClient, businessId: string, rows: CustomerCsvRow[]): Promise<RowError[]> {
  return z.array(rowError).parse(await callWhileBusy(() => supabase.rpc('import_customers', { _business_id: businessId, _rows: rows }), toError) ?? []);
}

export interface CustomerPreviewSummary { added: number; updated: number; unchanged: number }

export function summarizeCustomerPreview(preview: CustomerPreview): CustomerPreviewSummary {
  const count = (action: CustomerPreview['rows'][number]['action']) => preview.rows.filter((r) => r.action === action).length;
  return { added: count('new'), updated: count('update'), unchanged: count('same') };
}
