/**
 * Runs the real Supabase CLI on this repository's supabase/ folder: the binary of the exact optional dependency
 * @supabase/cli-linux-x64. Not the `supabase` wrapper package: it lists a binary package per platform, and the
 * registry CI installs from lacks the non-Linux ones, so `npm ci` refused the lock file (docs/adr/0084).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../supabase/local/db/paths';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const cli = join(repoRoot, 'node_modules', '@supabase', 'cli-linux-x64', 'bin', 'supabase');

/** Resolves with the exit code and output whatever the outcome (callers assert on them). */
export function runSupabase(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      cli,
      ['--workdir', repoRoot, ...args],
      {
        cwd: repoRoot,
        maxBuffer: 16 * 1024 * 1024,
        timeout: 180_000,
        env: {
          ...process.env,
          // The throwaway server speaks no TLS; say so instead of a warning on every command.
          PGSSLMODE: 'disable',
          SUPABASE_TELEMETRY_DISABLED: '1',
          DO_NOT_TRACK: '1',
          SUPABASE_NO_UPDATE_NOTIFIER: '1',
        },
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`supabase ${args.join(' ')} did not run: ${error.message}`));
          return;
        }
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

/** Like runSupabase, but a non-zero exit is an error carrying the CLI's own words. */
export async function runSupabaseOk(args: string[]): Promise<CliResult> {
  const result = await runSupabase(args);
  if (result.code !== 0) {
    throw new Error(`supabase ${args[0]} ${args[1] ?? ''} failed (${result.code}):\n${result.stderr}${result.stdout}`);
  }
  return result;
}
