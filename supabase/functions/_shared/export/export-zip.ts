/**
 * Writes a business export as a ZIP into a WritableStream (docs/adr/0290): manifest.json, tables/<table>.jsonl (one
 * JSON object a line, every row of the business's tables) and csv/<file>.csv (the formats of csv-formats.ts).
 *
 * Streaming end to end: each entry is a ReadableStream whose pull() reads the next page from the database only when
 * the ZIP writer wants more, and the ZIP writer writes only as fast as its WritableStream (the Storage upload) takes
 * the bytes, so at most a page or two of rows is in memory whatever the size of the business. zip.js compresses
 * with the runtime's CompressionStream (native in Deno) and adds Zip64 records by itself past 4 GB.
 */
import { TextReader, ZipWriter, configure } from '@zip.js/zip.js';
import Papa from 'papaparse';
import { EXPORT_CSV_COLUMNS, type ExportCsvFile } from './csv-formats.ts';

// Web workers are not available in the Edge Runtime; the compression runs in the function's own isolate.
configure({ useWebWorkers: false });

/** The version of the export's layout; a reader checks it before reading the files. */
export const EXPORT_SCHEMA_VERSION = 'storewise-business-export/1';

export type Row = Record<string, unknown>;

export interface ExportSource {
  /** The tables and their row counts, as counted when the export was asked for. */
  tables: { table: string; rows: number }[];
  /** The page of a table after `after` (the last row of the previous page; null first); empty at the end. */
  tableRows(table: string, after: Row | null): Promise<Row[]>;
  /** The page of a CSV file after the key `after` (each row has a `key`); empty at the end. */
  csvRows(file: ExportCsvFile, after: string | null): Promise<Row[]>;
}

export interface Manifest {
  schema_version: string;
  business: { id: string; name: string };
  exported_at: string;
  tables: { table: string; rows: number; file: string }[];
  csv: { file: string; columns: readonly string[]; rows: number }[];
}

const encoder = new TextEncoder();

/** A stream that asks `next` for one more chunk of text whenever its reader wants data; null ends it. */
function pagedText(next: () => Promise<string | null>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const text = await next();
      if (text === null) controller.close();
      else controller.enqueue(encoder.encode(text));
    },
  }, { highWaterMark: 0 });
}

/** CSV text of one page: the header only on the first page; spreadsheet formulas escaped, as the screens do. */
function csvPage(file: ExportCsvFile, rows: Row[], first: boolean): string {
  const fields = [...EXPORT_CSV_COLUMNS[file]];
  const text = Papa.unparse({ fields, data: rows.map((row) => fields.map((field) => row[field] ?? '')) },
    { header: first, escapeFormulae: true, newline: '\r\n' });
  return first ? text : `\r\n${text}`;
}

/**
 * The export as a stream of ZIP bytes (`zip`) and the promise of its manifest (`done`, settled when the last byte
 * was taken). `onRows` is told how many table rows were written so far (the progress bar). The manifest goes last,
 * once the CSV row counts are known; readers find it by name. A failure errors the stream, so an upload reading it
 * fails too instead of storing half a ZIP; `abort` does the same from the reader's side (the upload refused).
 */
export function businessExportZip(source: ExportSource, business: { id: string; name: string },
  onRows: (done: number) => Promise<void> | void): { zip: ReadableStream<Uint8Array>; done: Promise<Manifest>; abort: (error: unknown) => void } {
  let fail: (error: unknown) => void = () => undefined;
  const pipe = new TransformStream<Uint8Array, Uint8Array>({ start(controller) { fail = (error) => controller.error(error); } },
    { highWaterMark: 1 }, { highWaterMark: 0 });
  const done = writeEntries(pipe.writable, source, business, onRows).catch((error: unknown) => {
    fail(error);
    throw error;
  });
  return { zip: pipe.readable, done, abort: (error) => fail(error) };
}

async function writeEntries(output: WritableStream<Uint8Array>, source: ExportSource,
  business: { id: string; name: string }, onRows: (done: number) => Promise<void> | void): Promise<Manifest> {
  const zip = new ZipWriter(output, { level: 6, bufferedWrite: false });
  let done = 0;
  const written = new Map<string, number>();
  for (const { table } of source.tables) {
    let after: Row | null = null;
    written.set(table, 0);
    // An empty page closes the stream (pagedText), after which it is not pulled again.
    await zip.add(`tables/${table}.jsonl`, pagedText(async () => {
      const rows = await source.tableRows(table, after);
      if (rows.length === 0) return null;
      after = rows[rows.length - 1] ?? null;
      done += rows.length;
      written.set(table, (written.get(table) ?? 0) + rows.length);
      await onRows(done);
      return rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
    }));
  }
  const csv: Manifest['csv'] = [];
  for (const file of Object.keys(EXPORT_CSV_COLUMNS) as ExportCsvFile[]) {
    let after: string | null = null;
    let count = 0;
    let ended = false;
    await zip.add(`csv/${file}.csv`, pagedText(async () => {
      // Set once the header of a file without rows was sent: that text did not close the stream.
      if (ended) return null;
      const rows = await source.csvRows(file, after);
      if (rows.length === 0) {
        ended = true;
        // A file without rows still has its header, so an import names the columns it would have read.
        return count === 0 ? csvPage(file, [], true) : null;
      }
      const first = count === 0;
      after = String(rows[rows.length - 1]?.key ?? '');
      count += rows.length;
      return csvPage(file, rows, first);
    }));
    csv.push({ file: `csv/${file}.csv`, columns: EXPORT_CSV_COLUMNS[file], rows: count });
  }
  const manifest: Manifest = {
    schema_version: EXPORT_SCHEMA_VERSION,
    business,
    exported_at: new Date().toISOString(),
    // The rows written: the business may have changed since they were counted for the progress bar.
    tables: source.tables.map((t) => ({ table: t.table, rows: written.get(t.table) ?? 0, file: `tables/${t.table}.jsonl` })),
    csv,
  };
  await zip.add('manifest.json', new TextReader(JSON.stringify(manifest, null, 2)));
  await zip.close();
  return manifest;
}
