import { describe, expect, it } from 'vitest';
import { sectionFromHash } from './sections';

describe('sectionFromHash', () => {
  it('names the section of a plain anchor', () => {
    expect(sectionFromHash('#pricing')).toBe('pricing');
    expect(sectionFromHash('#about')).toBe('about');
  });
  it('keeps the section when an auth redirect appended its own fragment', () => {
    expect(sectionFromHash('#pricing#access_token=abc&type=signup')).toBe('pricing');
  });
  it('ignores unknown anchors and token-only fragments', () => {
    expect(sectionFromHash('#access_token=abc')).toBeNull();
    expect(sectionFromHash('#nowhere')).toBeNull();
    expect(sectionFromHash('')).toBeNull();
  });
});
