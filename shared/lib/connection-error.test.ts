import { describe, expect, it } from 'vitest';
import { isConnectionError } from './connection-error';

describe('isConnectionError', () => {
  it('recognises each browser\'s failed fetch, as supabase-js passes it on', () => {
    for (const message of ['TypeError: Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed', 'fetch failed']) {
      expect(isConnectionError(new Error(message), true)).toBe(true);
    }
  });

  it('takes any failure while the browser says it is offline as one', () => {
    expect(isConnectionError(new Error('permission denied'), false)).toBe(true);
    expect(isConnectionError(null, false)).toBe(true);
  });

  it('leaves the service\'s own refusals alone while online', () => {
    expect(isConnectionError(new Error('permission denied: your role in this business does not allow this'), true)).toBe(false);
    expect(isConnectionError(null, true)).toBe(false);
  });
});
