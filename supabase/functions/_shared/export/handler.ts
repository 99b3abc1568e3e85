/**
 * business-export: an owner exports the business (docs/adr/0290). The rules are in the database:
 * - `start` (the owner's token): begin_business_export (owner only, aal2 when enrolled, written to the trail) gives
 *   the job; the ZIP is then built in the background (EdgeRuntime.waitUntil on the Edge Runtime) and streamed to
 *   the exports bucket at `<business id>/<name>.zip`, the progress written to the job as it goes; answers 202 with
 *   the job's id at once, which the screen polls with business_export_status;
 * - `download` (the owner's token): business_export_file (owner, aal2 when enrolled, the job ready) names the file;
 *   the answer is a signed URL that expires in five minutes.
 * The rows are read with the service role, page by page, only for the job's business. Nothing personal or secret
 * is logged.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { HttpRefusal, bearerOf, json, readBody } from '../billing/http.ts';
import { serveBilling, type Log } from '../billing/serve.ts';
import { businessExportZip, type ExportSource, type Row } from './export-zip.ts';

const body = z.discriminatedUnion('action', [
  z.object({ action: z.literal('start'), business_id: z.uuid() }),
  z.object({ action: z.literal('download'), export_id: z.uuid() }),
], { error: 'action must be start or download' });

export interface ExportDeps {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  log: Log;
  /** Keeps the build running after the answer (EdgeRuntime.waitUntil on the Edge Runtime). */
  background: (work: Promise<unknown>) => void;
}

/** Rows a page: small enough for a flat memory, large enough that the calls do not dominate. */
const PAGE = 1000;
/** How long a download link works. */
const LINK_SECONDS = 300;

const refusals: Record<string, 400 | 403 | 404 | 409> = { '42501': 403, PT404: 404, '22023': 400, P0001: 409 };

function refusalOf(error: { code?: string; message: string }): HttpRefusal | null {
  if (error.code === 'PGRST301' || error.code === 'PGRST303') return new HttpRefusal(401, 'Sign in again.');
  const status = error.code ? refusals[error.code] : undefined;
  return status ? new HttpRefusal(status, error.message.charAt(0).toUpperCase() + error.message.slice(1) + '.') : null;
}

const options = { auth: { persistSession: false, autoRefreshToken: false } };

interface Job {
  id: string;
  business_id: string;
  business_name: string;
  tables: { table: string; rows: number }[];
  rows_total: number;
}

/** The file's name: the business's id is its folder; the name says what and when (UTC), never who. */
export function exportFileName(at: Date): string {
  return `storewise-export-${at.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.zip`;
}

export function createExportHandler(deps: ExportDeps) {
  const service = createClient(deps.supabaseUrl, deps.serviceRoleKey, options);

  const rpc = async <T>(client: SupabaseClient, name: string, args: Record<string, unknown>): Promise<T> => {
    const { data, error } = await client.rpc(name, args);
    if (error) throw refusalOf(error) ?? new Error(`${name}: ${error.code ?? ''}`);
    return data as T;
  };

  /** Builds the ZIP and streams it to Storage; the job ends ready (with its file) or failed. */
  const build = async (exportId: string): Promise<void> => {
    let done = 0;
    try {
      const job = await rpc<Job>(service, 'business_export_job', { _export_id: exportId });
      const path = `${job.business_id}/${exportFileName(new Date())}`;
      const source: ExportSource = {
        tables: job.tables,
        tableRows: (table, after) => rpc<Row[]>(service, 'business_export_rows', { _export_id: exportId, _table: table, _after: after, _limit: PAGE }),
        csvRows: (file, after) => rpc<Row[]>(service, 'business_export_csv_rows', { _export_id: exportId, _file: file, _after: after, _limit: PAGE }),
      };
      let reportedAt = 0;
      const zip = businessExportZip(source, { id: job.business_id, name: job.business_name }, async (rows) => {
        done = rows;
        // At most two progress writes a second: the bar moves, the database is not kept busy by it.
        if (Date.now() - reportedAt < 500) return;
        reportedAt = Date.now();
        await rpc(service, 'business_export_progress', { _export_id: exportId, _rows_done: rows });
      });
      const upload = service.storage.from('exports').upload(path, zip.zip, { contentType: 'application/zip', upsert: false })
        .then(({ error }) => {
          if (error) {
            // The writer would wait forever for a reader that is gone.
            zip.abort(error);
            throw new Error(`the upload was refused (${(error as { statusCode?: string }).statusCode ?? error.name})`);
          }
        });
      await Promise.all([zip.done, upload]);
      await rpc(service, 'business_export_progress', { _export_id: exportId, _rows_done: job.rows_total, _state: 'ready', _object_name: path });
      deps.log(`business-export: export ready (${done} rows)`);
    } catch (error) {
      deps.log(`business-export: export failed: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown'}`);
      await service.rpc('business_export_progress', { _export_id: exportId, _rows_done: done, _state: 'failed' });
    }
  };

  return serveBilling('business-export', deps.log, async (request) => {
    const input = await readBody(request, body);
    const jwt = bearerOf(request);
    if (!jwt || jwt === deps.anonKey) throw new HttpRefusal(401, 'Sign in first.');
    const user = createClient(deps.supabaseUrl, deps.anonKey, { ...options, global: { headers: { Authorization: `Bearer ${jwt}` } } });
    if (input.action === 'start') {
      const exportId = await rpc<string>(user, 'begin_business_export', { _business_id: input.business_id });
      deps.background(build(exportId));
      return json(202, { export_id: exportId });
    }
    const path = await rpc<string>(user, 'business_export_file', { _export_id: input.export_id });
    const name = path.slice(path.indexOf('/') + 1);
    const { data, error } = await service.storage.from('exports').createSignedUrl(path, LINK_SECONDS, { download: name });
    if (error || !data) throw new HttpRefusal(404, 'The export file is no longer there: export again.');
    return json(200, { url: data.signedUrl, name, expires_in: LINK_SECONDS });
  });
}
