// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/admin.sql: admin_legal_documents() admin_publish_legal_draft() admin_save_legal_draft()
import { z } from 'zod';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { legalSlugs, type LegalSlug } from '../../../lib/legal-slugs';
import { AdminApiError } from '../admin-api';

export const legalAdminRowSchema = z.object({
  slug: z.enum(legalSlugs),
  current_version: z.number().nullable(),
  current_effective_at: z.string().nullable(),
  current_body_md: z.string().nullable(),
  draft_body_md: z.string().nullable(),
  draft_updated_at: z.string().nullable(),
  scheduled_version: z.number().nullable(),
  scheduled_effective_at: z.string().nullable(),
});
export type LegalAdminRow = z.infer<typeof legalAdminRowSchema>;

/** What the editor sends: a Markdown body within the database's bounds, and a publication date. */
export const legalDraftSchema = z.object({
  body: z.string().refine((value) => value.trim().length > 0, 'Write the document').refine((value) => value.length <= 100_000, 'At most 100,000 characters'),
  effectiveDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the date it takes effect'),
});
export type LegalDraft = z.infer<typeof legalDraftSchema>;

const fail = (error: { message: string; code?: string }) => new AdminApiError(error.message, error.code);

export async function fetchLegalDocuments(supabase: StorewiseClient): Promise<LegalAdminRow[]> {
  const { data, error } = await supabase.rpc('admin_legal_documents');
  if (error) throw fail(error);
  return legalAdminRowSchema.array().parse(data);
}

export async function saveLegalDraft(supabase: StorewiseClient, slug: LegalSlug, body: string): Promise<void> {
  const { error } = await supabase.rpc('admin_save_legal_draft', { _slug: slug, _body_md: body });
  if (error) throw fail(error);
}

/** Publishes the saved draft; it takes effect at the start of the chosen day, the admin's local time. */
export async function publishLegalDraft(supabase: StorewiseClient, slug: LegalSlug, effectiveDate: string): Promise<number> {
  const { data, error } = await supabase.rpc('admin_publish_legal_draft', {
    _slug: slug,
    _effective_at: new Date(`${effectiveDate}T00:00:00`).toISOString(),
  });
  if (error) throw fail(error);
  return z.number().parse(data);
}
