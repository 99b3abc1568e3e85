/**
 * Answers of the billing functions: JSON with a sentence for every refusal (4xx, never a 5xx for bad input),
 * and the CORS headers a browser needs to call a hosted Edge Function (locally the gateway adds them too).
 */
import type { z } from 'zod';

export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, x-supabase-api-version',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...corsHeaders } });
}

export const refuse = (status: 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413, message: string) => json(status, { error: message });

export class HttpRefusal extends Error {
  constructor(readonly status: 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413, message: string) {
    super(message);
  }
}

/** Reads a small JSON body and checks it with the schema; a clear 4xx otherwise. */
export async function readBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  const text = await request.text();
  if (text.length > 16_384) throw new HttpRefusal(413, 'The request body is too large.');
  let value: unknown = {};
  if (text.trim()) {
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpRefusal(400, 'The request body is not valid JSON.');
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpRefusal(400, `Invalid request: ${issue?.path.join('.') || 'body'} ${issue?.message ?? 'is invalid'}.`);
  }
  return parsed.data;
}

export function bearerOf(request: Request): string | null {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? null;
}
