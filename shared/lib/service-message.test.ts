import { AuthApiError, AuthRetryableFetchError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { passwordTooLongForService } from './password-limit';
import { serviceMessage, serviceUnavailableMessage } from './service-message';

describe('serviceMessage', () => {
  it('replaces the "{}" of a 5xx or a network failure with a sentence', () => {
    expect(serviceMessage(new AuthRetryableFetchError('{}', 500))).toBe(serviceUnavailableMessage);
    expect(serviceMessage(new AuthRetryableFetchError('Failed to fetch', 0))).toBe(serviceUnavailableMessage);
    expect(serviceMessage({ message: '{}' })).toBe(serviceUnavailableMessage);
  });
  it('keeps the service\'s own words for every other error', () => {
    expect(serviceMessage(new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'))).toBe('Invalid login credentials');
    expect(serviceMessage({ message: 'Password should be at least 6 characters.' })).toBe('Password should be at least 6 characters.');
  });
  it('says bytes where the auth service says "72 characters" for a too-long password', () => {
    const refusal = new AuthApiError('Password cannot be longer than 72 characters', 422, 'validation_failed');
    expect(serviceMessage(refusal)).toBe(passwordTooLongForService);
    expect(passwordTooLongForService).toMatch(/at most 72 bytes/);
  });
});
