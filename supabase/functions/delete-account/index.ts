// A team member deletes their own login (docs/adr/0208). Deploy with `supabase functions deploy delete-account`;
// the work is in delete.ts.
import { createDeleteHandler, deleteConfigFromEnv } from './delete.ts';

const config = deleteConfigFromEnv((name) => Deno.env.get(name));

Deno.serve(createDeleteHandler(config, { fetch, log: (line) => console.error(line) }));
