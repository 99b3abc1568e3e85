import Papa from 'papaparse';
import { currencyDigits, minorToPlain, parseMinorAmount, type Currency } from '../../lib/money';
import { parseCsvFile } from '../../lib/csv-file';
import { productImagePath, type ImageUrlContext } from '../../lib/product-images/image-url';
import { CATALOG_COLUMNS, MONEY_COLUMNS, type CsvRow } from './catalog-columns';
import type { RowError } from './catalog-import';


export interface ParsedCsv {
  rows: CsvRow[];
  /** Whole-file problems (encoding, header); row problems come from the database's dry run. */
  errors: string[];
}

const MAX_ROWS = 20_000;

/**
 * The catalog file through the shared CSV reader (shared/lib/csv-file.ts): UTF-8 only, the columns of
 * catalog-columns.ts; cells are kept as text (prices as the person wrote them: toDatabaseRows turns them into minor
 * units).
 */
export function parseCatalogCsv(bytes: ArrayBuffer): ParsedCsv {
  return parseCsvFile(bytes, {
    columns: CATALOG_COLUMNS.map((c) => c.key),
    required: CATALOG_COLUMNS.filter((c) => 'required' in c && c.required).map((c) => c.key),
    maxRows: MAX_ROWS,
  });
}

/**
 * The rows as the database takes them (an image_url as the picture's name in the bucket, see above): money columns ("2.50" in the catalog's currency) become whole minor units
 * ("250"; JPY "250" stays 250 yen, KWD "2.500" is 2500 fils). A cell that is not an amount of this currency is named
 * with its row and left as written (the database then refuses the row as well; the panel shows this message).
 */
export function toDatabaseRows(rows: CsvRow[], currency: Currency, images?: ImageUrlContext): { rows: CsvRow[]; problems: RowError[] } {
  const problems: RowError[] = [];
  const converted = rows.map((row, i) => {
    const out: CsvRow = { ...row };
    // A picture's address becomes the object's name in product-images (ADR 0371); another host, bucket or
    // business's folder is the row's message.
    if (row.image_url) {
      const image = images ? productImagePath(row.image_url, images) : { ok: false as const, message: 'the image_url cannot be read here' };
      if (image.ok) out.image_url = image.path;
      else {
        delete out.image_url;
        problems.push({ row_index: i + 1, message: image.message });
      }
    }
    for (const key of MONEY_COLUMNS) {
      const text = row[key];
      if (text === undefined || text === '') continue;
      // A currency symbol or grouping a spreadsheet may add ("$1,250.00") is not guessed at: the person fixes it.
      // The database keeps at most 12 digits of minor units.
      const parsed = parseMinorAmount(text, currency, { maxWholeDigits: 12 - currencyDigits(currency) });
      if (parsed.ok) out[key] = String(parsed.minor);
      else problems.push({ row_index: i + 1, message: `the ${key} "${text}": ${parsed.message.replace(/^(Enter|This) /, (w) => w.toLowerCase())}` });
    }
    return out;
  });
  return { rows: converted, problems };
}

/** A money column's example in the currency's form: "25" -> USD "25.00", JPY "25", KWD "25.000". */
function moneyExample(units: string, currency: Currency): string {
  return minorToPlain(BigInt(units) * 10n ** BigInt(currencyDigits(currency)), currency);
}

/** The template a person fills in: every column, and one example row with money in the catalog's currency. */
export function catalogTemplateCsv(currency: Currency): string {
  const fields = CATALOG_COLUMNS.map((c) => c.key);
  const example = CATALOG_COLUMNS.map((c) => ('money' in c && c.money ? moneyExample(c.example, currency) : c.example));
  return Papa.unparse({ fields, data: [example] }, { newline: '\r\n' });
}
