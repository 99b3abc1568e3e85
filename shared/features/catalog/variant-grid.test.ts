import { describe, expect, it } from 'vitest';
import { generateGrid, parseValues, suggestSku, toMinorUnits } from './variant-grid';

describe('variant grid', () => {
  it('multiplies 3 sizes by 4 colours into 12 variants with distinct SKUs', () => {
    const grid = generateGrid('Linen Shirt', [
      { name: 'Size', values: 'S, M, L' },
      { name: 'Colour', values: 'White, Blue, Sand, Black' },
    ]);
    expect(grid).toHaveLength(12);
    expect(grid[0]).toEqual({ options: ['S', 'White'], sku: 'LINENS-S-WHIT' });
    expect(new Set(grid.map((v) => v.sku)).size).toBe(12);
  });

  it('gives one default variant without options and drops empty or repeated values', () => {
    expect(generateGrid('Milk', [])).toEqual([{ options: [], sku: 'MILK' }]);
    expect(parseValues(' S, ,m, M ,L')).toEqual(['S', 'm', 'L']);
  });

  it('keeps SKUs unique when values shorten to the same code', () => {
    const grid = generateGrid('Tee', [{ name: 'Colour', values: 'Bluebell, Blueberry' }]);
    expect(grid.map((v) => v.sku)).toEqual(['TEE-BLUE', 'TEE-BLUE-2']);
  });

  it('suggests SKUs the database accepts', () => {
    expect(suggestSku('Crème brûlée (large)', ['XL'])).toMatch(/^[A-Z0-9][A-Z0-9._/-]{0,39}$/);
  });

  it('reads prices as minor units and refuses negatives and 3 decimals', () => {
    expect(toMinorUnits('12.5')).toBe(1250);
    expect(toMinorUnits('0')).toBe(0);
    expect(toMinorUnits('-1')).toBeNull();
    expect(toMinorUnits('1.005')).toBeNull();
    expect(toMinorUnits('1250', 'JPY')).toBe(1250);
    expect(toMinorUnits('12.5', 'JPY')).toBeNull();
    expect(toMinorUnits('1.005', 'KWD')).toBe(1005);
    expect(toMinorUnits('0.29')).toBe(29);
  });
});
