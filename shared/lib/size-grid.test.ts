import { describe, expect, it } from 'vitest';
import { cellKey, colourCodes, gridCells, layoutGrid, listValues, sizeCode, styleCode } from './size-grid';

const SKU = /^[A-Z0-9][A-Z0-9._/-]{0,39}$/;

describe('size grid SKUs: STYLE-COLOUR-SIZE', () => {
  it.each([
    ['', 'Linen Shirt', 'LINENS'],
    ['ss27-tee', 'Linen Shirt', 'SS27TEE'],
    ['', 'Crème brûlée', 'CREMEB'],
    ['', '***', 'STYLE'],
  ])('style code %j of %j is %s', (typed, name, code) => {
    expect(styleCode(typed, name)).toBe(code);
  });

  it.each([
    [['Black', 'Blue', 'Navy'], ['BLA', 'BLU', 'NAV']],
    [['Blue', 'Blush', 'Blueberry'], ['BLU', 'BLU2', 'BLU3']],
    [['Écru', 'ecru 2'], ['ECR', 'ECR2']],
    [['#1', '—'], ['1', 'C']],
  ])('colour codes of %j are %j', (colours, codes) => {
    expect(colourCodes(colours)).toEqual(codes);
  });

  it.each([['m', 'M'], ['10.5', '10.5'], ['32/34', '32/34'], ['XL ', 'XL'], ['½', '12'], ['/', 'OS']])('size %j is %s', (size, code) => {
    expect(sizeCode(size)).toBe(code);
  });

  it('a 3 x 2 grid gives 6 cells, size by size, with distinct valid SKUs', () => {
    const cells = gridCells('LINENS', ['S', 'M', 'L'], ['Navy', 'White']);
    expect(cells.map((c) => c.sku)).toEqual([
      'LINENS-NAV-S', 'LINENS-WHI-S', 'LINENS-NAV-M', 'LINENS-WHI-M', 'LINENS-NAV-L', 'LINENS-WHI-L',
    ]);
    expect(cells[1]).toEqual({ size: 'S', colour: 'White', sku: 'LINENS-WHI-S' });
    expect(cells.every((c) => SKU.test(c.sku))).toBe(true);
  });

  it('keeps SKUs within 40 characters', () => {
    const [cell] = gridCells(styleCode('ABCDEFGHIJKLMNOP', ''), ['XXXXXXXXXXL'], ['Turquoise']);
    expect(cell?.sku).toBe('ABCDEFGHIJKL-TUR-XXXXXXXX');
    expect(cell?.sku.length).toBeLessThanOrEqual(40);
  });
});

describe('listValues and layoutGrid', () => {
  it('drops empties and repeats in any case, keeps the order typed', () => {
    expect(listValues(' S, m ,, M, L ,XL')).toEqual(['S', 'm', 'L', 'XL']);
  });

  it('lays variants out by size and colour in the order first seen, leaving out variants without both', () => {
    const variants = [
      { id: 'a', option1: 'S', option2: 'Navy' }, { id: 'b', option1: 'M', option2: 'Navy' },
      { id: 'c', option1: 'S', option2: 'White' }, { id: 'd', option1: null, option2: null },
    ];
    const grid = layoutGrid(variants);
    expect(grid.sizes).toEqual(['S', 'M']);
    expect(grid.colours).toEqual(['Navy', 'White']);
    expect(grid.cells.get(cellKey('M', 'White'))).toBeUndefined();
    expect(grid.cells.get(cellKey('S', 'White'))?.id).toBe('c');
    expect(grid.cells.size).toBe(3);
  });
});
