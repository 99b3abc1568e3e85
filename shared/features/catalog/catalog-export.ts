import Papa from 'papaparse';
import type { StorewiseClient } from '../../lib/supabase-client';
import { minorToPlain, type Currency } from '../../lib/money';
import { IMAGE_BUCKET } from '../../lib/product-images/image-url';
import { unwrap } from './catalog-api';
import { exportColumns, MONEY_COLUMNS, type CatalogColumnKey } from './catalog-columns';

/** One exported variant, in the import's columns (so an export can be edited and imported into another business). */
export interface ExportRow {
  product_name: string;
  unit: string;
  category: string;
  brand: string;
  option_name: string;
  option_value: string;
  sku: string;
  price: number;
  cost: number | '';
  barcode: string;
  /** The public URL of the product's main picture (ADR 0371), so the export re-imports unchanged. */
  image_url: string;
}

const PAGE = 1000;

/** Every row of a query, page by page (the data API returns at most 1,000 rows a request). */
async function all<T>(page: (from: number, to: number) => PromiseLike<{ data: T[] | null; error: { message: string } | null }>): Promise<T[]> {
  const rows: T[] = [];
  for (let from = 0; ; from += PAGE) {
    const batch = unwrap(await page(from, from + PAGE - 1)) ?? [];
    rows.push(...batch);
    if (batch.length < PAGE) return rows;
  }
}

/**
 * The business's unarchived catalog, one row per variant. Costs come only when asked for (owners and managers:
 * the database returns none to a cashier anyway). Several options are written "Size / Colour" and "M / Blue".
 */
export async function fetchCatalogExport(supabase: StorewiseClient, businessId: string, withCost: boolean): Promise<ExportRow[]> {
  const [products, variants, categories, barcodes, costs, images] = await Promise.all([
    all((a, b) => supabase.from('products').select('id, name, unit, brand, category_id, option1_name, option2_name, option3_name')
      .eq('business_id', businessId).is('archived_at', null).order('id').range(a, b)),
    all((a, b) => supabase.from('variants').select('id, product_id, sku, price, option1, option2, option3')
      .eq('business_id', businessId).is('archived_at', null).order('id').range(a, b)),
    all((a, b) => supabase.from('categories').select('id, name').eq('business_id', businessId).order('id').range(a, b)),
    all((a, b) => supabase.from('barcodes').select('variant_id, code, created_at').eq('business_id', businessId).order('created_at').order('code').range(a, b)),
    withCost ? all((a, b) => supabase.from('variant_costs').select('variant_id, cost').eq('business_id', businessId).order('variant_id').range(a, b))
      : Promise.resolve([] as { variant_id: string; cost: number }[]),
    all((a, b) => supabase.from('product_images').select('product_id, path').eq('business_id', businessId).eq('is_main', true)
      .order('product_id').range(a, b)),
  ]);
  const mainImage = new Map(images.map((i) => [i.product_id, supabase.storage.from(IMAGE_BUCKET).getPublicUrl(i.path).data.publicUrl]));
  const productById = new Map(products.map((p) => [p.id, p]));
  const categoryById = new Map(categories.map((c) => [c.id, c.name]));
  const firstBarcode = new Map<string, string>();
  for (const b of barcodes) if (!firstBarcode.has(b.variant_id)) firstBarcode.set(b.variant_id, b.code);
  const costById = new Map(costs.map((c) => [c.variant_id, Number(c.cost)]));
  const rows: ExportRow[] = [];
  for (const v of variants) {
    const p = productById.get(v.product_id);
    if (!p) continue;
    rows.push({
      product_name: p.name, unit: p.unit, category: p.category_id ? categoryById.get(p.category_id) ?? '' : '', brand: p.brand ?? '',
      option_name: [p.option1_name, p.option2_name, p.option3_name].filter(Boolean).join(' / '),
      option_value: [v.option1, v.option2, v.option3].filter(Boolean).join(' / '),
      sku: v.sku, price: Number(v.price), cost: withCost ? costById.get(v.id) ?? '' : '', barcode: firstBarcode.get(v.id) ?? '',
      image_url: mainImage.get(p.id) ?? '',
    });
  }
  return rows.sort((a, b) => a.product_name.localeCompare(b.product_name) || a.sku.localeCompare(b.sku));
}

/**
 * The rows as CSV with papaparse, in the import's columns (catalog-columns.ts): prices and costs as money in the
 * catalog's currency ("2.50"), as the import reads them, so the file re-imports as "nothing changes"; cells a
 * spreadsheet would run as a formula are escaped; the cost column is left out entirely without cost access.
 */
export function catalogCsv(rows: ExportRow[], withCost: boolean, currency: Currency): string {
  const fields = exportColumns(withCost);
  const cell = (row: ExportRow, field: string) => {
    const value = row[field as keyof ExportRow];
    return MONEY_COLUMNS.includes(field as CatalogColumnKey) && value !== '' ? minorToPlain(value, currency) : value;
  };
  return Papa.unparse({ fields, data: rows.map((r) => fields.map((f) => cell(r, f))) }, { escapeFormulae: true, newline: '\r\n' });
}
