import type { PrintableReceipt } from '../../../platform/platform';

/** The largest logo sent to the desktop (src/ipc-contract.ts LOGO_MAX_WIDTH / LOGO_MAX_HEIGHT). */
const MAX_WIDTH = 576;
const MAX_HEIGHT = 288;

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * The business logo as the grayscale picture an ESC/POS receipt prints (docs/adr/0321): decoded by the browser
 * (the desktop's main process has no image decoder to trust), drawn over white (transparent parts print as paper)
 * within 576 x 288, one luminance byte a pixel. Main fits it to its printer's dots and dithers it. Null when the
 * logo cannot be loaded (offline without it in the browser's cache): the receipt prints without it.
 */
export async function logoForPrinting(url: string, fetcher: typeof fetch = fetch): Promise<PrintableReceipt['logo']> {
  try {
    const response = await fetcher(url);
    if (!response.ok) return null;
    const bitmap = await createImageBitmap(await response.blob());
    const scale = Math.min(1, MAX_WIDTH / bitmap.width, MAX_HEIGHT / bitmap.height);
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const rgba = context.getImageData(0, 0, width, height).data;
    const gray = new Uint8Array(width * height);
    for (let i = 0; i < gray.length; i += 1) {
      gray[i] = Math.round(0.299 * rgba[i * 4]! + 0.587 * rgba[i * 4 + 1]! + 0.114 * rgba[i * 4 + 2]!);
    }
    return { width, height, gray: toBase64(gray) };
  } catch {
    return null;
  }
}
