import { z } from 'zod';

/** The specification's ticket attachments: PDF, PNG or JPG up to 10 MB (the support-attachments bucket agrees). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export const ATTACHMENT_ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

const typeByExtension: Record<string, (typeof ATTACHMENT_TYPES)[number]> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

/** The type to declare: the browser's when it is one we take, else the extension's (some systems send none). */
export function attachmentType(file: { name: string; type: string }): string | undefined {
  if ((ATTACHMENT_TYPES as readonly string[]).includes(file.type)) return file.type;
  if (file.type && file.type !== 'application/octet-stream') return undefined;
  return typeByExtension[file.name.split('.').pop()?.toLowerCase() ?? ''];
}

/**
 * The first check, in the form: type and size. The server checks again, and by content (a page renamed .png is
 * refused there even though it passes here).
 */
export const attachmentSchema = z
  .custom<File>((value) => typeof File !== 'undefined' && value instanceof File, 'Choose a file')
  .refine((file) => attachmentType(file) !== undefined, 'Only PDF, PNG or JPG files can be attached')
  .refine((file) => file.size <= ATTACHMENT_MAX_BYTES, 'The file is larger than 10 MB')
  .refine((file) => file.size > 0, 'The file is empty');

/** A storage name from a file name: letters, digits, dot, dash and underscore only, at most 80 characters. */
export function safeFileName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[^\w.-]+/g, '_').replace(/^[._]+/, '').slice(-80);
  return cleaned || 'attachment';
}
