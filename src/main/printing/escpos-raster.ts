/**
 * The business logo on an ESC/POS receipt (issue 27, docs/adr/0321): a grayscale picture (made by the register
 * from the logo, src/ipc-contract.ts bounds it) fitted to the printer's dots, dithered to 1 bit and sent as
 * GS v 0 (print raster bit image). Pure functions, so a known small bitmap gives known bytes.
 */

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, row by row: 0 black, 255 white. */
  pixels: Uint8Array;
}

/** Printable dots across an 80 mm roll: 48 columns of 12-dot characters, 576 dots; the 42-column setting, 512. */
export const dotsFor = (columns: 42 | 48): number => (columns === 48 ? 576 : 512);

/**
 * The picture no wider than `maxWidth` dots (proportions kept, never enlarged), each new pixel the average of the
 * source pixels it covers (a box filter: thin lines of a logo stay grey instead of vanishing as with nearest).
 */
export function fitToWidth(image: GrayImage, maxWidth: number): GrayImage {
  if (image.width <= maxWidth) return image;
  const width = maxWidth;
  const height = Math.max(1, Math.round((image.height * maxWidth) / image.width));
  const pixels = new Uint8Array(width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y += 1) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
    for (let x = 0; x < width; x += 1) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
      let sum = 0;
      for (let yy = y0; yy < y1; yy += 1) for (let xx = x0; xx < x1; xx += 1) sum += image.pixels[yy * image.width + xx] ?? 255;
      pixels[y * width + x] = Math.round(sum / ((y1 - y0) * (x1 - x0)));
    }
  }
  return { width, height, pixels };
}

/**
 * Floyd-Steinberg dithering to 1 bit: each pixel becomes black (1) below mid-grey, and the error is carried to
 * the neighbours to the right and below (7/16, 3/16, 5/16, 1/16), so greys print as dot patterns of their darkness.
 * Returns one entry per pixel: 1 prints a dot.
 */
export function ditherToBits(image: GrayImage): Uint8Array {
  const { width, height } = image;
  const work = Float32Array.from(image.pixels);
  const bits = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const old = work[i]!;
      const black = old < 128;
      bits[i] = black ? 1 : 0;
      const error = old - (black ? 0 : 255);
      if (x + 1 < width) work[i + 1]! += (error * 7) / 16;
      if (y + 1 < height) {
        if (x > 0) work[i + width - 1]! += (error * 3) / 16;
        work[i + width]! += (error * 5) / 16;
        if (x + 1 < width) work[i + width + 1]! += error / 16;
      }
    }
  }
  return bits;
}

/**
 * GS v 0 m xL xH yL yH d1...dk (m = 0, normal size): x is the bytes per row (width / 8, rounded up: the last byte
 * padded with blank dots), y the rows; each byte holds 8 dots, the leftmost in the high bit.
 */
export function rasterCommand(bits: Uint8Array, width: number, height: number): number[] {
  const rowBytes = Math.ceil(width / 8);
  if (rowBytes > 0xffff || height > 0xffff) throw new RangeError('raster image too large');
  const out = [0x1d, 0x76, 0x30, 0, rowBytes & 0xff, rowBytes >> 8, height & 0xff, height >> 8];
  for (let y = 0; y < height; y += 1) {
    for (let bx = 0; bx < rowBytes; bx += 1) {
      let byte = 0;
      for (let bit = 0; bit < 8; bit += 1) {
        const x = bx * 8 + bit;
        if (x < width && bits[y * width + x]) byte |= 0x80 >> bit;
      }
      out.push(byte);
    }
  }
  return out;
}

/** The logo as printer bytes for a roll `dots` wide: fitted, dithered, encoded. */
export function logoRaster(image: GrayImage, dots: number): number[] {
  const fitted = fitToWidth(image, dots);
  return rasterCommand(ditherToBits(fitted), fitted.width, fitted.height);
}
