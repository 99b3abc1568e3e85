/**
 * Magic-byte checks for the types a browser would render or a viewer would open: a file declared as one of
 * these must start like one. An SVG or HTML page renamed .png (declared image/png) is refused, so nothing
 * uploaded as a picture can be served as markup. Other declared types are stored as declared and served with
 * nosniff, as attachments.
 */
const startsWith = (head: Uint8Array, bytes: number[], offset = 0) => bytes.every((byte, index) => head[offset + index] === byte);

const checks: Record<string, (head: Uint8Array) => boolean> = {
  'image/png': (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (head) => startsWith(head, [0xff, 0xd8, 0xff]),
  'image/gif': (head) => startsWith(head, [0x47, 0x49, 0x46, 0x38]),
  // RIFF....WEBP
  'image/webp': (head) => startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8),
  'application/pdf': (head) => startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d]),
};
checks['image/jpg'] = checks['image/jpeg']!;

/** Bytes needed to decide. */
export const SNIFF_BYTES = 12;

/** The base type, lower case, without parameters: "Image/PNG; x=y" -> "image/png". */
export function baseMimeType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/** False when the declared type is one we recognise and the first bytes are not of that type. */
export function contentMatches(mimeType: string, head: Uint8Array): boolean {
  const check = checks[baseMimeType(mimeType)];
  return check ? check(head) : true;
}

/** Types served inline: raster images only (SVG can carry script, so it is an attachment like the rest). */
export function servedInline(mimeType: string): boolean {
  return ['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp', 'image/avif'].includes(baseMimeType(mimeType));
}
