// Storage: bucket business-logos, one object per business at <business id>/logo (supabase/schemas/storage.sql,
// docs/adr/0231): public by URL (receipts and emails show it without a session), only the owner writes it.
import { z } from 'zod';
import { sharedRequest } from './shared-request';
import { storageWriteError } from './storage-refusal';
import type { StorewiseClient } from './supabase-client';

const BUCKET = 'business-logos';
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export const logoFileSchema = z
  .custom<File>((value) => typeof File !== 'undefined' && value instanceof File, 'Choose a file')
  .refine((file) => (LOGO_TYPES as readonly string[]).includes(file.type), 'Use a PNG, JPG or WebP picture')
  .refine((file) => file.size <= LOGO_MAX_BYTES, 'The picture is larger than 2 MB');

const logoPath = (businessId: string) => `${businessId}/logo`;

/** Replaces the logo (upsert), the type declared as the browser read it; the server checks the bytes. */
export async function uploadLogo(supabase: StorewiseClient, businessId: string, file: File): Promise<void> {
  const { error } = await supabase.storage.from(BUCKET).upload(logoPath(businessId), file, { upsert: true, contentType: file.type, cacheControl: '60' });
  if (error) throw await storageWriteError(supabase, error);
}

export async function removeLogo(supabase: StorewiseClient, businessId: string): Promise<void> {
  const { data, error } = await supabase.storage.from(BUCKET).remove([logoPath(businessId)]);
  if (error) throw await storageWriteError(supabase, error);
  // Storage removes only what the policies let it and lists what it removed: nothing means refused or gone.
  if (data.length === 0) throw await storageWriteError(supabase, { statusCode: '403', message: 'There was no logo to remove.' });
}

/**
 * The logo's public URL, with its last change as a version so a replaced logo is not served from a cache;
 * null when the business has none.
 */
export function fetchLogoUrl(supabase: StorewiseClient, businessId: string): Promise<string | null> {
  // The header and the settings card ask at the same moment: one request answers both.
  return sharedRequest(supabase, `business-logo:${businessId}`, () => lookUpLogoUrl(supabase, businessId));
}

async function lookUpLogoUrl(supabase: StorewiseClient, businessId: string): Promise<string | null> {
  const { data, error } = await supabase.storage.from(BUCKET).list(businessId, { search: 'logo', limit: 1 });
  if (error) throw new Error(error.message);
  const entry = data.find((item) => item.name === 'logo' && item.id !== null);
  if (!entry) return null;
  const url = supabase.storage.from(BUCKET).getPublicUrl(logoPath(businessId)).data.publicUrl;
  return `${url}?v=${encodeURIComponent(entry.updated_at ?? '')}`;
}
