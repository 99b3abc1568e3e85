/**
 * The catalog file's image_url cell (docs/adr/0371): a picture already in this business's folder of the
 * product-images bucket, written as its public URL (what the catalog's export writes and Storage's getPublicUrl
 * gives), its authenticated object URL, or the path form "product-images/<business>/...". Answers the object's
 * name in the bucket, or the sentence the preview shows on the row. Another host, another bucket and another
 * business's folder are refused here; the database checks the folder again and that the object exists.
 */
export const IMAGE_BUCKET = 'product-images';

export type ImagePathResult = { ok: true; path: string } | { ok: false; message: string };

export interface ImageUrlContext {
  /** The Supabase project's URL the app talks to (its Storage serves the public URLs). */
  supabaseUrl: string;
  businessId: string;
}

const OBJECT_PREFIXES = ['/storage/v1/object/public/', '/storage/v1/object/authenticated/', '/storage/v1/object/'];

/** "<bucket>/<name>" -> the segments, each decoded once; null when a segment cannot be decoded. */
function segmentsOf(text: string): string[] | null {
  try {
    return text.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

export function productImagePath(cell: string, context: ImageUrlContext): ImagePathResult {
  const text = cell.trim();
  let bucketAndName: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    let url: URL;
    let base: URL;
    try {
      url = new URL(text);
      base = new URL(context.supabaseUrl);
    } catch {
      return { ok: false, message: `the image_url "${text.slice(0, 80)}" is not a web address` };
    }
    if (url.origin !== base.origin) {
      return { ok: false, message: `the image_url is on another site (${url.host}): upload the picture to your product images, then use its address` };
    }
    // A project served under a path (a proxy) keeps its prefix before /storage/v1.
    const basePath = base.pathname.replace(/\/+$/, '');
    const rest = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
    const prefix = OBJECT_PREFIXES.find((p) => rest.startsWith(p));
    if (!prefix) return { ok: false, message: 'the image_url is not the address of a stored picture (…/storage/v1/object/public/product-images/…)' };
    bucketAndName = rest.slice(prefix.length);
  } else {
    bucketAndName = text.replace(/^\/+/, '');
  }
  const segments = segmentsOf(bucketAndName);
  if (!segments) return { ok: false, message: 'the image_url has a broken %-escape' };
  const [bucket, ...name] = segments;
  if (bucket !== IMAGE_BUCKET) {
    return { ok: false, message: `the image_url is in the "${(bucket ?? '').slice(0, 60)}" bucket, not in ${IMAGE_BUCKET}: use the address of a product picture` };
  }
  if (name.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) {
    return { ok: false, message: 'the image_url has an empty, "." or ".." part' };
  }
  if (name.length < 2) return { ok: false, message: 'the image_url names a folder, not a picture' };
  if (name[0] !== context.businessId) {
    return { ok: false, message: 'the image_url is in another business\'s folder: use a picture of this business' };
  }
  return { ok: true, path: name.join('/') };
}
