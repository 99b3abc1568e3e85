import { describe, expect, it } from 'vitest';
import type { Factor, Session } from '@supabase/supabase-js';
import { owesNothing } from './use-second-factor';

const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const session = (aal: string, factors?: Partial<Factor>[]) =>
  ({ access_token: `${encode({ alg: 'HS256' })}.${encode({ sub: 'u1', aal })}.sig`, user: { id: 'u1', factors } }) as unknown as Session;

describe('owesNothing', () => {
  it('is true at aal2, and at aal1 without a verified factor', () => {
    expect(owesNothing(session('aal2', [{ id: 'f1', status: 'verified' }]))).toBe(true);
    expect(owesNothing(session('aal1'))).toBe(true);
    expect(owesNothing(session('aal1', []))).toBe(true);
    expect(owesNothing(session('aal1', [{ id: 'f1', status: 'unverified' }]))).toBe(true);
  });

  it('is false at aal1 with a verified factor, and for a token it cannot read that has one', () => {
    expect(owesNothing(session('aal1', [{ id: 'f1', status: 'verified' }]))).toBe(false);
    expect(owesNothing({ ...session('aal1', [{ id: 'f1', status: 'verified' }]), access_token: 'opaque' })).toBe(false);
  });
});
