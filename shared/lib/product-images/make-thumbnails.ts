import { fitWithin, THUMBNAIL_SIZES, type ThumbnailSize } from './thumbnail-size';

export interface Thumbnail {
  blob: Blob;
  width: number;
  height: number;
}

/** WebP where the browser encodes it, else JPEG (Safari's canvas answers a WebP request with a PNG). */
async function encode(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  const as = (type: string) => new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
  const webp = await as('image/webp');
  if (webp && webp.type === 'image/webp') return webp;
  const jpeg = await as('image/jpeg');
  if (!jpeg) throw new Error('This browser could not make a preview of the picture');
  return jpeg;
}

/**
 * The small and medium previews of a picture, made in the browser at upload (docs/adr/0320), so that lists and
 * the register never download the full-size file. createImageBitmap decodes it (and refuses what is not a
 * picture); each preview is drawn on a canvas at fitWithin's size over white (a transparent PNG turned JPEG
 * would be black).
 */
export async function makeThumbnails(file: Blob): Promise<Record<ThumbnailSize, Thumbnail> & { width: number; height: number }> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error('The file could not be read as a picture');
  }
  try {
    const make = async (size: ThumbnailSize): Promise<Thumbnail> => {
      const { width, height } = fitWithin(bitmap.width, bitmap.height, THUMBNAIL_SIZES[size]);
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('This browser could not make a preview of the picture');
      context.fillStyle = '#fff';
      context.fillRect(0, 0, width, height);
      context.imageSmoothingQuality = 'high';
      context.drawImage(bitmap, 0, 0, width, height);
      return { blob: await encode(canvas, size === 'small' ? 0.75 : 0.82), width, height };
    };
    return { small: await make('small'), medium: await make('medium'), width: bitmap.width, height: bitmap.height };
  } finally {
    bitmap.close();
  }
}
