import { describe, expect, it } from 'vitest';
import { fitWithin, THUMBNAIL_SIZES } from './thumbnail-size';

describe('fitWithin', () => {
  it('scales the longer edge down to the limit and keeps the proportions', () => {
    expect(fitWithin(4000, 3000, 480)).toEqual({ width: 480, height: 360 });
    expect(fitWithin(3000, 4000, 480)).toEqual({ width: 360, height: 480 });
    expect(fitWithin(1000, 1000, THUMBNAIL_SIZES.small)).toEqual({ width: 96, height: 96 });
  });

  it('rounds to whole pixels', () => {
    // 1366 x 768 at 96: 96 x 53.97
    expect(fitWithin(1366, 768, 96)).toEqual({ width: 96, height: 54 });
  });

  it('never enlarges a picture already within the limit', () => {
    expect(fitWithin(64, 40, 96)).toEqual({ width: 64, height: 40 });
    expect(fitWithin(480, 200, 480)).toEqual({ width: 480, height: 200 });
  });

  it('keeps at least one pixel on a very thin strip', () => {
    expect(fitWithin(10000, 10, 96)).toEqual({ width: 96, height: 1 });
  });

  it('refuses a picture without a size', () => {
    expect(() => fitWithin(0, 10, 96)).toThrow(RangeError);
    expect(() => fitWithin(10, Number.NaN, 96)).toThrow(RangeError);
  });
});
