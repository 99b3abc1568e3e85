import { baseMimeType } from './content-sniff';
import { errors } from './storage-error';

/** The whole service's upload limit when a bucket sets none (hosted's free-plan default, 50 MB). */
export const DEFAULT_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

export interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  public: boolean;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
  type: string;
  created_at: string;
  updated_at: string;
}

/** The effective limit in bytes: the bucket's, capped by the service's. */
export function sizeLimit(bucket: Pick<BucketRow, 'file_size_limit'>, serviceLimit: number): number {
  const own = bucket.file_size_limit === null ? null : Number(bucket.file_size_limit);
  return own !== null && Number.isFinite(own) && own > 0 ? Math.min(own, serviceLimit) : serviceLimit;
}

/** Storage's allowed_mime_types rule, with "image/*" wildcards; compared without parameters. */
export function checkMimeType(bucket: Pick<BucketRow, 'allowed_mime_types'>, mimeType: string): void {
  const allowed = bucket.allowed_mime_types;
  if (!allowed || allowed.length === 0) return;
  const [type, subtype] = baseMimeType(mimeType).split('/');
  const ok = allowed.some((entry) => {
    const [allowedType, allowedSub] = baseMimeType(entry).split('/');
    return allowedType === type && (allowedSub === '*' || allowedSub === subtype);
  });
  if (!ok) throw errors.invalidMimeType(mimeType);
}

/** Storage's file_size_limit input: a number of bytes or "20GB" / "20MB" / "30KB" / "3B". */
export function parseFileSizeLimit(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string') {
    const match = /^(\d+)\s*(GB|MB|KB|B)?$/i.exec(value.trim());
    if (match) {
      const units: Record<string, number> = { GB: 1024 ** 3, MB: 1024 ** 2, KB: 1024, B: 1 };
      return Number(match[1]) * units[(match[2] ?? 'B').toUpperCase()]!;
    }
  }
  throw errors.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
}
