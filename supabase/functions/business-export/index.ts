// An owner exports the business as a ZIP (docs/adr/0290). JWT verification on: the owner's token. The build runs
// after the answer, kept alive by EdgeRuntime.waitUntil on the Edge Runtime (a plain Deno process keeps it anyway).
import { createExportHandler } from '../_shared/export/handler.ts';

const get = (name: string) => Deno.env.get(name);
const missing = ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'].filter((name) => !get(name));
if (missing.length > 0) throw new Error(`business-export: missing secrets ${missing.join(', ')}`);
const edge = (globalThis as { EdgeRuntime?: { waitUntil(work: Promise<unknown>): void } }).EdgeRuntime;

Deno.serve(createExportHandler({
  supabaseUrl: (get('SUPABASE_URL') ?? '').replace(/\/+$/, ''),
  anonKey: get('SUPABASE_ANON_KEY') ?? '',
  serviceRoleKey: get('SUPABASE_SERVICE_ROLE_KEY') ?? '',
  log: (line) => console.error(line),
  background: (work) => {
    if (edge) edge.waitUntil(work);
    else void work;
  },
}));
