/**
 * Where the main process keeps secrets: the OS keychain through keytar (Keychain on macOS, Credential
 * Manager on Windows, the Secret Service on Linux), behind a three-method interface so switching to
 * Electron's safeStorage is a one-file change (docs/adr/0071). When no keychain is reachable the app
 * keeps secrets in memory for the running session only and says so once.
 */
export interface CredentialStore {
  /** False for the in-memory fallback: the sign-in will not survive a restart. */
  readonly persistent: boolean;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** The part of keytar we use (its module shape, so a real keytar import satisfies it). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export const CREDENTIAL_SERVICE = 'Storewise';
export const PERSISTENCE_WARNING =
  'Storewise cannot reach this computer\u2019s keychain, so your sign-in will not be remembered after you close the app.';

export function createKeytarStore(keytar: KeytarLike, service = CREDENTIAL_SERVICE): CredentialStore {
  return {
    persistent: true,
    get: (account) => keytar.getPassword(service, account),
    set: (account, secret) => keytar.setPassword(service, account, secret),
    delete: (account) => keytar.deletePassword(service, account),
  };
}

export function createMemoryStore(): CredentialStore {
  const secrets = new Map<string, string>();
  return {
    persistent: false,
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
  };
}

export interface OpenedCredentialStore {
  store: CredentialStore;
  /** Set when the fallback is in use: shown once by the renderer. */
  warning: string | null;
}

const PROBE_ACCOUNT = 'storewise-keychain-probe';

/**
 * Loads keytar and checks the keychain answers (on Linux without a D-Bus session or an unlocked Secret
 * Service, keytar loads fine but every call fails). Any failure means the in-memory fallback.
 */
export async function openCredentialStore(
  loadKeytar: () => Promise<KeytarLike> = defaultKeytarLoader,
  log: (message: string) => void = (message) => console.warn(message),
): Promise<OpenedCredentialStore> {
  try {
    const keytar = await loadKeytar();
    await keytar.getPassword(CREDENTIAL_SERVICE, PROBE_ACCOUNT);
    return { store: createKeytarStore(keytar), warning: null };
  } catch (error) {
    log(`Storewise: OS keychain unavailable, keeping the session in memory (${error instanceof Error ? error.message : String(error)})`);
    return { store: createMemoryStore(), warning: PERSISTENCE_WARNING };
  }
}

/** keytar is an optional native dependency: a missing or unbuildable module is not a crash. */
async function defaultKeytarLoader(): Promise<KeytarLike> {
  const imported: KeytarLike | { default: KeytarLike } = await import('keytar');
  return 'default' in imported ? imported.default : imported;
}
