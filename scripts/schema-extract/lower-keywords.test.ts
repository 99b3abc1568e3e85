import { describe, expect, it } from 'vitest';
import { lowerKeywords } from './lower-keywords';

describe('lowerKeywords', () => {
  it('lowers the keywords and leaves literals and quoted names as they are', () => {
    expect(lowerKeywords(`CHECK ((kind = ANY (ARRAY['In'::text, 'It''s OUT'::text]))) AND "Odd ""Name""" IS NOT NULL`))
      .toBe(`check ((kind = any (array['In'::text, 'It''s OUT'::text]))) and "Odd ""Name""" is not null`);
    expect(lowerKeywords(`E'a\\\\B' COLLATE "C"`)).toBe(`e'a\\\\B' collate "C"`);
  });
});
