/**
 * The previews made in the browser at upload (docs/adr/0320): lists and the register show the small one, the
 * product page the medium one, and nothing but the product page's "open full size" link loads the original.
 */
export const THUMBNAIL_SIZES = {
  /** Catalog rows, register search results and cart lines (shown at 40-48 CSS px; 2x for dense screens). */
  small: 96,
  /** The product page's gallery. */
  medium: 480,
} as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;

/**
 * The size of a preview whose longer edge is at most `maxEdge`, keeping the picture's proportions; a picture
 * already smaller is never enlarged. Each edge is at least 1 pixel (a 4000 x 10 strip stays visible).
 */
export function fitWithin(width: number, height: number, maxEdge: number): { width: number; height: number } {
  if (!(width > 0 && height > 0 && maxEdge > 0)) throw new RangeError('a picture needs a positive width and height');
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
