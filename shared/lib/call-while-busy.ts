/** An answer of supabase-js (rpc, from().select()): data or error, and the HTTP status. */
export interface CallAnswer<T> { data: T | null; error: { message: string; code?: string; hint?: string | null } | null; status: number }

const BUSY_RETRIES = 10;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Makes a heavy call (an import's check, preview or write) and answers its data. A 429 (the stack is busy with this
 * account's other calls, ADR 0181) is sent again after a pause, up to BUSY_RETRIES times; any other error is thrown
 * as `toError` makes it.
 */
export async function callWhileBusy<T>(call: () => PromiseLike<CallAnswer<T>>,
  toError: (error: NonNullable<CallAnswer<T>['error']>) => Error,
  pause: (ms: number) => Promise<void> = sleep): Promise<T | null> {
  for (let attempt = 0; ; attempt += 1) {
    const { data, error, status } = await call();
    if (!error) return data;
    if (status !== 429 || attempt >= BUSY_RETRIES) throw toError(error);
    await pause(1000);
  }
}
