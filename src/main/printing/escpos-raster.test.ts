import { describe, expect, it } from 'vitest';
import { ditherToBits, dotsFor, fitToWidth, logoRaster, rasterCommand, type GrayImage } from './escpos-raster';

const gray = (width: number, height: number, at: (x: number, y: number) => number): GrayImage => {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) pixels[y * width + x] = at(x, y);
  return { width, height, pixels };
};

describe('the logo as an ESC/POS raster image', () => {
  it('encodes a known bitmap as GS v 0 with its size, 8 dots a byte, the leftmost in the high bit', () => {
    // 10 x 2: row 0 black except the last two dots, row 1 only the first dot black.
    const image = gray(10, 2, (x, y) => (y === 0 ? (x < 8 ? 0 : 255) : x === 0 ? 0 : 255));
    expect(logoRaster(image, 576)).toEqual([
      0x1d, 0x76, 0x30, 0x00, // GS v 0, normal size
      0x02, 0x00, // 2 bytes a row (10 dots, padded to 16)
      0x02, 0x00, // 2 rows
      0xff, 0x00, // row 0
      0x80, 0x00, // row 1
    ]);
  });

  it('writes sizes above 255 in two bytes, low first', () => {
    const bits = new Uint8Array(2048 * 300);
    const command = rasterCommand(bits, 2048, 300);
    expect(command.slice(0, 8)).toEqual([0x1d, 0x76, 0x30, 0, 0x00, 0x01, 0x2c, 0x01]);
    expect(command.length).toBe(8 + 256 * 300);
  });

  it('dithers mid-grey to about half the dots, and keeps black and white as they are', () => {
    const half = ditherToBits(gray(16, 16, () => 128));
    const dots = half.reduce((sum, bit) => sum + bit, 0);
    expect(dots).toBeGreaterThan(96);
    expect(dots).toBeLessThan(160);
    expect([...ditherToBits(gray(4, 1, () => 0))]).toEqual([1, 1, 1, 1]);
    expect([...ditherToBits(gray(4, 1, () => 255))]).toEqual([0, 0, 0, 0]);
  });

  it('fits a wide logo to the printer dots, keeping its proportions, and never enlarges a small one', () => {
    const wide = fitToWidth(gray(1152, 200, (x) => (x % 2 ? 0 : 255)), dotsFor(48));
    expect([wide.width, wide.height]).toEqual([576, 100]);
    // Every pair of one black and one white dot averages to grey.
    expect(wide.pixels[0]).toBe(128);
    const small = gray(40, 20, () => 0);
    expect(fitToWidth(small, dotsFor(42))).toBe(small);
    expect(logoRaster(gray(1024, 64, () => 0), dotsFor(42)).slice(4, 8)).toEqual([64, 0, 32, 0]);
  });
});
