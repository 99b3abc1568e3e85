// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/workspace.sql: business_export_status()
// Function: supabase/functions/business-export (docs/adr/0290).
import { z } from 'zod';
import type { StorewiseClient } from '../../lib/supabase-client';

/** The progress of an export as business_export_status returns it (null: not the caller's, or gone). */
export const exportStatusSchema = z.object({
  state: z.enum(['building', 'ready', 'failed']),
  rows_done: z.number().int().nonnegative(),
  rows_total: z.number().int().nonnegative(),
}).nullable();
export type ExportStatus = z.infer<typeof exportStatusSchema>;

const started = z.object({ export_id: z.uuid() });
const link = z.object({ url: z.url(), name: z.string().min(1), expires_in: z.number() });

export class ExportRefusal extends Error {}

/** The function's sentence for a refusal (not the owner, second factor needed, an export under way...). */
async function refusalOf(error: unknown): Promise<ExportRefusal> {
  const context = (error as { context?: Response }).context;
  const body = context && typeof context.json === 'function'
    ? ((await context.json().catch(() => ({}))) as { error?: string })
    : {};
  return new ExportRefusal(body.error ?? 'The export could not be started. Try again shortly.');
}

export async function startBusinessExport(supabase: StorewiseClient, businessId: string): Promise<string> {
  const { data, error } = await supabase.functions.invoke('business-export', { method: 'POST', body: { action: 'start', business_id: businessId } });
  if (error) throw await refusalOf(error);
  return started.parse(data).export_id;
}

export async function fetchExportStatus(supabase: StorewiseClient, exportId: string): Promise<ExportStatus> {
  const { data, error } = await supabase.rpc('business_export_status', { _export_id: exportId });
  if (error) throw new ExportRefusal(error.message);
  return exportStatusSchema.parse(data ?? null);
}

export async function exportDownloadLink(supabase: StorewiseClient, exportId: string): Promise<z.infer<typeof link>> {
  const { data, error } = await supabase.functions.invoke('business-export', { method: 'POST', body: { action: 'download', export_id: exportId } });
  if (error) throw await refusalOf(error);
  return link.parse(data);
}

/** Percent for the progress bar (null: nothing counted yet, an indeterminate bar). */
export function exportPercent(status: ExportStatus): number | null {
  if (!status || status.rows_total === 0) return status?.state === 'ready' ? 100 : null;
  return Math.min(100, Math.round((status.rows_done / status.rows_total) * 100));
}
