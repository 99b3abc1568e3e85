/**
 * The frame every billing function shares: CORS preflight, POST only, and one mapping from failures to
 * answers: a refusal with a sentence (4xx), the provider unreachable (503, nothing changed, retry), anything
 * else a 500 whose log line names the function and the error, never a token, a body or a person.
 */
import { HttpRefusal, corsHeaders, json, refuse } from './http.ts';
import { ProviderRefusal, ProviderUnavailable } from './provider.ts';
import { NotFound, NotOwner } from './store.ts';

export type Log = (line: string) => void;

export function serveBilling(name: string, log: Log, handle: (request: Request) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
    if (request.method !== 'POST') return refuse(405, 'Use POST.');
    try {
      return await handle(request);
    } catch (error) {
      if (error instanceof HttpRefusal) return refuse(error.status, error.message);
      if (error instanceof ProviderRefusal) return json(error.status, { error: error.message });
      if (error instanceof NotOwner) return refuse(403, 'Only the owner of this business can manage its billing.');
      if (error instanceof NotFound) return refuse(404, 'That invoice was not found.');
      if (error instanceof ProviderUnavailable) {
        log(`${name}: payment provider unreachable`);
        return json(503, { error: 'The payment provider cannot be reached right now. Nothing was changed; try again in a minute.', retry: true });
      }
      log(`${name}: unexpected error: ${error instanceof Error ? error.message.slice(0, 300) : 'unknown'}`);
      return json(500, { error: 'Billing failed unexpectedly. Nothing was changed; try again.' });
    }
  };
}
