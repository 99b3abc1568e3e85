import { describe, expect, it } from 'vitest';
import { formatCount, pageInfo } from './pagination';

describe('pageInfo', () => {
  it('describes the first of several pages', () => {
    expect(pageInfo(1, 20, 45)).toEqual({ pageCount: 3, first: 1, last: 20, hasPrevious: false, hasNext: true });
  });
  it('describes a short last page', () => {
    expect(pageInfo(3, 20, 45)).toEqual({ pageCount: 3, first: 41, last: 45, hasPrevious: true, hasNext: false });
  });
  it('keeps one page for an empty list', () => {
    expect(pageInfo(1, 20, 0)).toEqual({ pageCount: 1, first: 0, last: 0, hasPrevious: false, hasNext: false });
  });
});

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(100004)).toBe('100,004');
  });
});
