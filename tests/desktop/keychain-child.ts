/**
 * Runs inside the D-Bus session the credential-store test starts (or outside any, for the fallback case):
 * write a session through the real keytar store, read it back through a brand-new store object, delete it,
 * and print what happened as one JSON line for the parent test to assert.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createChunkedStore } from '../../src/main/chunked-store';
import { CREDENTIAL_SERVICE, openCredentialStore } from '../../src/main/credential-store';
import { createSessionVault } from '../../src/main/session-vault';

const account = process.argv[2] ?? 'storewise-test.supabase.co';
const session = JSON.stringify({ access_token: 'a'.repeat(900), refresh_token: 'refresh-123', user: { email: 'owner@storewise.test', pad: 'p'.repeat(2500) } });

const logs: string[] = [];
const first = await openCredentialStore(undefined, (message) => logs.push(message));
const firstVault = createSessionVault(createChunkedStore(first.store), account);
await firstVault.setItem('sb-test-auth-token', session);
// The running app keeps working either way: the same store answers with what it was given.
const sameStoreReadBack = (await firstVault.getItem('sb-test-auth-token')) === session;

// While the session is stored: no file under HOME (where gnome-keyring keeps its keyrings) holds the token in clear.
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const stat = statSync(full);
    return stat.isDirectory() ? filesUnder(full) : stat.isFile() ? [full] : []; // skip the daemon's sockets
  });
const home = process.env.HOME ?? '/nonexistent';
const clearTextFiles = filesUnder(home).filter((file) => readFileSync(file).includes('refresh-123'));
const keyringFiles = filesUnder(home).filter((file) => file.includes('keyrings')).length;

// A second, independent store object: what a restarted app would see.
const second = await openCredentialStore(undefined, (message) => logs.push(message));
const readBack = await createSessionVault(createChunkedStore(second.store), account).getItem('sb-test-auth-token');

// Straight from keytar, to prove the secret really sits in the Secret Service under our service name.
let rawHead: string | null = null;
if (second.store.persistent) {
  const keytar = (await import('keytar')).default;
  rawHead = await keytar.getPassword(CREDENTIAL_SERVICE, account);
}

await createSessionVault(createChunkedStore(second.store), account).removeItem('sb-test-auth-token');
const third = await openCredentialStore(undefined, (message) => logs.push(message));
const afterDelete = await third.store.get(account);

console.log(
  JSON.stringify({
    persistent: [first.store.persistent, second.store.persistent],
    warning: first.warning,
    sameStoreReadBack,
    clearTextFiles,
    keyringFiles,
    readBackMatches: readBack === session,
    readBackLength: readBack?.length ?? 0,
    rawHeadIsChunked: rawHead?.startsWith('swc2:') ?? false,
    afterDelete,
    logs,
  }),
);
