/**
 * Runs the real Supabase CLI (the exact devDependency `supabase`, whose binary ships in
 * @supabase/cli-<platform>) on this repository's supabase/ folder.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../supabase/local/db/paths';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const cli = join(repoRoot, 'node_modules', '.bin', 'supabase');

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
