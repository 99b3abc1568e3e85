// A way back in after a lost authenticator (docs/adr/0206): a recovery code, checked in the database, removes the
// user's factors through the auth admin API. Deploy with `supabase functions deploy mfa-recover` (the platform
// checks the user's JWT); the work is in recover.ts.
import { createRecoverHandler, recoverConfigFromEnv } from './recover.ts';

const config = recoverConfigFromEnv((name) => Deno.env.get(name));

Deno.serve(createRecoverHandler(config, { fetch, log: (line) => console.error(line) }));
