// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/catalog.sql: catalog_import_images() set_main_product_image()
import { z } from 'zod';
import { IMAGE_BUCKET } from '../../lib/product-images/image-url';
import type { StorewiseClient } from '../../lib/supabase-client';
import { CatalogError } from './catalog-api';
import type { CsvRow } from './catalog-columns';
import { callWhileBusy, CHECK_PART_ROWS, type RowError } from './catalog-import';

/**
 * The catalog file's image_url column (ADR 0371). toDatabaseRows has turned each cell into the object's name in
 * product-images (or a row message); here the database says whether each is a picture of this business and what the
 * row's product shows now (the preview's change), and after the catalog's write each picture becomes its product's
 * main one.
 */
const answer = z.array(z.object({
  row_index: z.number().int(),
  product_id: z.uuid().nullable(),
  image_id: z.uuid().nullable(),
  is_main: z.boolean(),
  main_path: z.string().nullable(),
  message: z.string().nullable(),
}));
type ImageRow = z.infer<typeof answer>[number];

/** The Supabase URL the client talks to, as its Storage builds public URLs (the image_url cells are checked against it). */
export function supabaseUrlOf(supabase: StorewiseClient): string {
  const url = supabase.storage.from(IMAGE_BUCKET).getPublicUrl('x').data.publicUrl;
  return url.slice(0, url.indexOf('/storage/v1/'));
}

/** The rows with a picture, for catalog_import_images (row numbers are the rows' positions, 1-based). */
function imageRequests(rows: CsvRow[]) {
  return rows.flatMap((row, i) => (row.image_url
    ? [{ row_index: i + 1, sku: row.sku ?? '', product_name: row.product_name ?? '', path: row.image_url }] : []));
}

async function lookUp(supabase: StorewiseClient, businessId: string, rows: CsvRow[]): Promise<ImageRow[]> {
  const requests = imageRequests(rows);
  const found: ImageRow[] = [];
  for (let start = 0; start < requests.length; start += CHECK_PART_ROWS) {
    found.push(...answer.parse(await callWhileBusy(() => supabase.rpc('catalog_import_images', {
      _business_id: businessId, _rows: requests.slice(start, start + CHECK_PART_ROWS),
    })) ?? []));
  }
  return found;
}

export interface ImageCheck {
  problems: RowError[];
  /** Row (1-based) -> the main picture's change, for rows whose picture is not the main one already. */
  changes: Map<number, { old: string | null; new: string }>;
}

/** Checks the pictures of the rows (database form: image_url is the object's name). */
export async function checkCatalogImages(supabase: StorewiseClient, businessId: string, rows: CsvRow[]): Promise<ImageCheck> {
  const result: ImageCheck = { problems: [], changes: new Map() };
  for (const row of await lookUp(supabase, businessId, rows)) {
    if (row.message) result.problems.push({ row_index: row.row_index, message: row.message });
    else if (!row.is_main) result.changes.set(row.row_index, { old: row.main_path, new: rows[row.row_index - 1]?.image_url ?? '' });
  }
  return result;
}

/** Reads a stored picture as a File, for addProductImage (which makes its previews in the browser, ADR 0320). */
async function downloadPicture(supabase: StorewiseClient, path: string): Promise<File> {
  const { data, error } = await supabase.storage.from(IMAGE_BUCKET).download(path);
  if (error || !data) throw new CatalogError(`the picture could not be read: ${error?.message ?? 'no data'}`);
  return new File([data], path.split('/').pop() ?? 'picture', { type: data.type });
}

/**
 * Adds a picture that is not yet the product's, not as the main one, and answers its id: the product page's upload
 * with previews made in the browser (addProductImage, ADR 0320); tests pass their own.
 */
export type AddPicture = (target: { businessId: string; productId: string }, file: File, position: number) => Promise<string>;

/**
 * After the catalog's write: each row's picture becomes its product's main one. A picture already the product's
 * is chosen (set_main_product_image); another object of the business's folder is added to the product with its
 * previews, then chosen. Answers the rows that failed (the catalog rows themselves are written).
 */
export async function attachCatalogImages(supabase: StorewiseClient, businessId: string, rows: CsvRow[], add: AddPicture): Promise<RowError[]> {
  const failed: RowError[] = [];
  // The rows of one product's items carry its picture each (the export writes it on every item's row): once.
  const done = new Set<string>();
  for (const row of await lookUp(supabase, businessId, rows)) {
    const path = rows[row.row_index - 1]?.image_url ?? '';
    try {
      if (row.message) throw new CatalogError(row.message);
      if (!row.product_id) throw new CatalogError('the row\'s product was not found after the import');
      if (row.is_main || done.has(`${row.product_id}/${path}`)) continue;
      done.add(`${row.product_id}/${path}`);
      let imageId = row.image_id;
      if (!imageId) {
        const { count } = await supabase.from('product_images').select('id', { count: 'exact', head: true }).eq('product_id', row.product_id);
        imageId = await add({ businessId, productId: row.product_id }, await downloadPicture(supabase, path), count ?? 0);
      }
      const { error } = await supabase.rpc('set_main_product_image', { _image_id: imageId });
      if (error) throw new CatalogError(error.message, error.code);
    } catch (error) {
      failed.push({ row_index: row.row_index, message: `the picture was not set: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return failed;
}
