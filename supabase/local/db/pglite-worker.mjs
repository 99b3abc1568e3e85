/**
 * PGlite on its own thread (docs/adr/0080). The HTTP thread talks to it with messages
 * ({ id, op, ... } -> { id, ok, value | error }), so a statement that runs for minutes blocks only this
 * thread, and the main thread can terminate it and open the data folder again.
 *
 * Plain JavaScript on purpose: a worker is loaded by Node itself, without the TypeScript loader that
 * tsx or vitest give the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** @type {{ dataDir: string }} */
const options = workerData ?? {};

// Both extensions must be registered when the instance is created (see pglite-notes).
const pg = await PGlite.create(options.dataDir, { extensions: { pgcrypto, pg_trgm } });
// PGlite runs a single session that does not pick up ALTER DATABASE settings: set Supabase's search
// path (extensions callable unqualified, e.g. crypt() in a seed) for the session here.
await pg.query(`set search_path to "$user", public, extensions`);

/** The fields of a Postgres error the data API answers with; the rest (stack, query text) stays here. */
function errorFields(error) {
  if (error && typeof error === 'object' && typeof error.code === 'string') {
    const { code, message, detail, hint, position, schema, table, column, constraint } = error;
    return { code, message, detail, hint, position, schema, table, column, constraint };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

async function query(sql, params) {
  const result = await pg.query(sql, params ?? []);
  // Every statement PGlite completes names its command. A result without one is an error PGlite
  // lost inside the WASM module (a regular expression too complex to compile answers `[]`), after
  // which the instance is damaged: the main thread fails the request and restarts this worker.
  if (result.command === undefined) return { lost: true };
  return {
    rows: result.rows,
    fields: result.fields,
    // rowCount is per statement; affectedRows accumulates over the instance's statements.
    affectedRows: result.rowCount ?? result.affectedRows ?? 0,
  };
}

async function handle(message) {
  switch (message.op) {
    case 'query':
      return query(message.sql, message.params);
    case 'batch': {
      // Several statements in one message (begin + the request's settings): one thread hop, not three.
      let last = null;
      for (const statement of message.statements) {
        last = await query(statement.sql, statement.params);
        if (last.lost) break;
      }
      return last;
    }
    case 'exec':
      await pg.exec(message.sql);
      return null;
    case 'listen':
      // Notifications reach the main thread as { notify } messages (the Realtime server's wake-up call).
      await pg.listen(message.channel, (payload) => parentPort.postMessage({ notify: { channel: message.channel, payload } }));
      return null;
    case 'close':
      await pg.close();
      return null;
    default:
      throw new Error(`unknown operation ${String(message.op)}`);
  }
}

parentPort.on('message', (message) => {
  handle(message).then(
    (value) => {
      if (value && value.lost === true) parentPort.postMessage({ id: message.id, ok: false, lost: true });
      else parentPort.postMessage({ id: message.id, ok: true, value });
    },
    (error) => parentPort.postMessage({ id: message.id, ok: false, error: errorFields(error) }),
  );
});
parentPort.postMessage({ ready: true });
