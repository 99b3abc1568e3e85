import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET_FILE = 'jwt-secret';

/**
 * The HS256 secret of a local stack: STOREWISE_JWT_SECRET when set (tests fix it to mint keys), else
 * generated once per data folder and kept there with mode 0600, else (in memory) a fresh random one.
 */
export function loadJwtSecret(dataDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.STOREWISE_JWT_SECRET?.trim();
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('Storewise: STOREWISE_JWT_SECRET must be at least 32 characters.');
    return fromEnv;
  }
  if (!dataDir) return randomBytes(32).toString('base64url');
  const path = join(dataDir, SECRET_FILE);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  // mode on creation is masked by the umask; make sure nobody else can read it.
  chmodSync(path, 0o600);
  return secret;
}
