/**
 * Storage's files live under the data folder: an object uploaded before a restart downloads byte for byte after
 * it (and a signed URL made before still works, the signing key coming from the folder's JWT secret); a file
 * whose row is deleted outside the API (a business deleted with its rows) is swept away.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalStack, type RunningStack } from '../../supabase/local/server';
import { createNodeSupabaseClient } from '../helpers/node-supabase-client';

const root = mkdtempSync(join(tmpdir(), 'storewise-storage-restart-'));
let running: RunningStack | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(root, { recursive: true, force: true });
});

const start = () => startLocalStack({ dataDir: join(root, 'data'), seed: false, apiPort: 0, inboxPort: 0, paymentsPort: 0, outboxRelay: false });

describe('restarts', () => {
  it('keeps files across a restart and removes those whose rows are gone', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31) % 251;
    running = await start();
    let client = createNodeSupabaseClient(running.apiUrl, running.serviceRoleKey);
    const upload = await client.storage.from('exports').upload('b1/export.zip', bytes, { contentType: 'application/zip' });
    expect(upload.error).toBeNull();
    const signed = await client.storage.from('exports').createSignedUrl('b1/export.zip', 3600);
    const signedPath = new URL(signed.data!.signedUrl);
    await running.stop();

    running = await start();
    client = createNodeSupabaseClient(running.apiUrl, running.serviceRoleKey);
    const download = await client.storage.from('exports').download('b1/export.zip');
    expect(download.error).toBeNull();
    expect(Buffer.from(await download.data!.arrayBuffer()).equals(bytes)).toBe(true);
    const again = await fetch(`${running.apiUrl}${signedPath.pathname}${signedPath.search}`);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);

    const row = await running.db.query<{ version: string }>(`select version from storage.objects where name = 'b1/export.zip'`);
    const version = row.rows[0]!.version;
    expect(await running.storage.files.size(version)).toBe(bytes.length);
    await running.db.query(`delete from storage.objects where name = 'b1/export.zip'`);
    expect(await running.storage.sweep(0)).toBeGreaterThanOrEqual(1);
    expect(await running.storage.files.size(version)).toBeUndefined();
  }, 240_000);
});
