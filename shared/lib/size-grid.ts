/**
 * The clothing pack's size and colour grid (issue 29, ADR 0340): sizes down, colours across, one variant per cell.
 * Pure, so the product form, the order/transfer/count grids and their tests share it.
 *
 * The SKU rule: STYLE-COLOUR-SIZE, upper case, letters and digits only in each part.
 *   STYLE:  the style code typed, else the first 6 letters/digits of the product name ("Linen Shirt" -> LINENS).
 *   COLOUR: the first 3 letters/digits of the colour ("Navy" -> NAV); when two colours of the grid share them the
 *           later ones get 2, 3... in the order typed ("Black", "Blue" -> BLA, BLU; "Blue", "Blush" -> BLU, BLU2).
 *   SIZE:   the size as typed with only letters, digits, "." and "/" kept ("10.5" -> 10.5, "32/34" -> 32/34).
 * So LINENS-NAV-M. The database's SKU pattern (^[A-Z0-9][A-Z0-9._/-]{0,39}$) always accepts the result.
 */
export interface GridCell {
  size: string;
  colour: string;
  sku: string;
}

/** Size runs to start from (the values can be edited after choosing one). */
export const SIZE_RUNS: { label: string; sizes: string }[] = [
  { label: 'XS to XL', sizes: 'XS, S, M, L, XL' },
  { label: 'S to XXL', sizes: 'S, M, L, XL, XXL' },
  { label: 'EU 34 to 46', sizes: '34, 36, 38, 40, 42, 44, 46' },
  { label: 'Waist 28 to 38', sizes: '28, 30, 32, 34, 36, 38' },
  { label: 'Shoes EU 36 to 45', sizes: '36, 37, 38, 39, 40, 41, 42, 43, 44, 45' },
  { label: 'Kids 2 to 12 years', sizes: '2Y, 4Y, 6Y, 8Y, 10Y, 12Y' },
];

/** Values as typed, comma separated: trimmed, empties and repeats (any case) dropped, order kept; 30 at most. */
export function listValues(text: string): string[] {
  const seen = new Set<string>();
  return text.split(',').map((v) => v.trim().replace(/\s+/g, ' ')).filter((v) => {
    const key = v.toLowerCase();
    if (v === '' || v.length > 60 || seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, 30);
}

const letters = (text: string) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The style part: the code typed, else the product name's first 6 letters/digits, else STYLE. */
export function styleCode(typed: string, productName: string): string {
  return letters(typed).slice(0, 12) || letters(productName).slice(0, 6) || 'STYLE';
}

/** Each colour's code, distinct within the grid (see the rule above). */
export function colourCodes(colours: string[]): string[] {
  const used = new Map<string, number>();
  return colours.map((colour) => {
    const base = letters(colour).slice(0, 3) || 'C';
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}${n}`;
  });
}

export const sizeCode = (size: string) =>
  size.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z0-9./]/g, '').replace(/^[./]+/, '').slice(0, 8) || 'OS';

/** Every cell of the grid, size by size, with its SKU. */
export function gridCells(style: string, sizes: string[], colours: string[]): GridCell[] {
  const codes = colourCodes(colours);
  return sizes.flatMap((size) => colours.map((colour, i) => ({
    size, colour, sku: `${style}-${codes[i] ?? 'C'}-${sizeCode(size)}`.slice(0, 40),
  })));
}

/** The key of a cell in maps of entries (quantities, chosen cells). */
export const cellKey = (size: string, colour: string) => `${size}\u0000${colour}`;

/**
 * A product's variants laid out as a grid: the sizes and colours in the order first seen (option1 = size,
 * option2 = colour), and each cell's variant. Variants without both options are left out (not a grid product).
 */
export function layoutGrid<V extends { option1: string | null; option2: string | null }>(variants: V[]) {
  const sizes: string[] = [];
  const colours: string[] = [];
  const cells = new Map<string, V>();
  for (const v of variants) {
    if (!v.option1 || !v.option2) continue;
    if (!sizes.includes(v.option1)) sizes.push(v.option1);
    if (!colours.includes(v.option2)) colours.push(v.option2);
    cells.set(cellKey(v.option1, v.option2), v);
  }
  return { sizes, colours, cells };
}
