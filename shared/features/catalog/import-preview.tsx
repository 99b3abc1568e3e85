import { ImportChanges as SharedImportChanges } from '../../components/import-changes';
import { formatMinor, type Currency } from '../../lib/money';
import { MONEY_COLUMNS, type CatalogColumnKey } from './catalog-columns';
import type { PreviewRow } from './catalog-preview';

const FIELD_NAMES: Record<string, string> = {
  product_name: 'Name', category: 'Category', brand: 'Brand', price: 'Price', cost: 'Cost', barcode: 'Barcode', option_value: 'Option',
  image_url: 'Main picture',
};

/** The catalog's updates, "Price $2.50 -> $2.75", with the file's row and SKU (the shared changes table). */
export function ImportChanges({ rows, skuOf, currency }: { rows: PreviewRow[]; skuOf: (row: PreviewRow) => string; currency: Currency }) {
  return (
    <SharedImportChanges rows={rows} keyLabel="SKU" keyOf={(row) => skuOf(row as PreviewRow)} fieldLabels={FIELD_NAMES}
      label="Changes to existing items"
      format={(field, v) => (MONEY_COLUMNS.includes(field as CatalogColumnKey) ? formatMinor(v, currency) : String(v))} />
  );
}
