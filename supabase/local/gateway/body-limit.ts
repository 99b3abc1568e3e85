import type { MiddlewareHandler } from 'hono';

/** Past the limit the rest of the body is read and dropped up to this cap, then the connection is cut. */
const DRAIN_CAP = 16 * 1024 * 1024;

/**
 * Buffers request bodies up to maxBytes (declared length or not). A larger body gets a 413 JSON answer
 * after the upload has been drained, so clients see the 413 instead of a reset connection while sending.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    if (!request.body || request.method === 'GET' || request.method === 'HEAD') return next();
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size <= maxBytes) chunks.push(value);
      else if (size > DRAIN_CAP) {
        await reader.cancel();
        break;
      }
    }
    if (size > maxBytes) {
      return c.json(
        { code: 'request_too_large', message: `Request body larger than ${maxBytes} bytes`, details: null, hint: null },
        413,
      );
    }
    const body = Buffer.concat(chunks);
    c.req.raw = new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: body.byteLength > 0 ? body : null,
      signal: request.signal,
    });
    return next();
  };
}
