import { describe, expect, it } from 'vitest';
import { authenticatorCodeSchema, recoveryCodeSchema } from './code-schema';

describe('code schemas', () => {
  it('accept six digits, with the space some apps show between the groups', () => {
    expect(authenticatorCodeSchema.parse({ code: '123 456' })).toEqual({ code: '123456' });
    for (const bad of ['12345', '1234567', 'abcdef', '']) expect(authenticatorCodeSchema.safeParse({ code: bad }).success, bad).toBe(false);
  });

  it('accept a recovery code in any case, with or without its hyphen', () => {
    expect(recoveryCodeSchema.parse({ code: ' ABCDE-23456 ' })).toEqual({ code: 'abcde-23456' });
    expect(recoveryCodeSchema.safeParse({ code: 'abcde23456' }).success).toBe(true);
    expect(recoveryCodeSchema.safeParse({ code: 'abc' }).success).toBe(false);
  });
});
