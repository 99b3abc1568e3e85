import { describe, expect, it } from 'vitest';
import { isMissingInformation, ticketSchema } from './ticket-schema';

describe('ticketSchema', () => {
  it('trims and accepts a subject and a message', () => {
    expect(ticketSchema.parse({ subject: ' Scanner ', message: ' Not detected ' })).toEqual({
      subject: 'Scanner',
      message: 'Not detected',
    });
  });

  it('requires both fields, also when only blanks were typed', () => {
    const result = ticketSchema.safeParse({ subject: '   ', message: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Subject is required', 'Message is required']);
  });

  it('bounds the lengths the database accepts', () => {
    expect(ticketSchema.safeParse({ subject: 'x'.repeat(201), message: 'm' }).error?.issues[0]?.message).toBe(
      'Subject is too long',
    );
    expect(ticketSchema.safeParse({ subject: 's', message: 'x'.repeat(5001) }).error?.issues[0]?.message).toBe(
      'Message is too long',
    );
  });
});

describe('isMissingInformation', () => {
  it('is true when either field is empty or blank', () => {
    expect(isMissingInformation({ subject: '', message: 'm' })).toBe(true);
    expect(isMissingInformation({ subject: 's', message: '  ' })).toBe(true);
    expect(isMissingInformation({})).toBe(true);
    expect(isMissingInformation({ subject: 's', message: 'm' })).toBe(false);
  });
});
