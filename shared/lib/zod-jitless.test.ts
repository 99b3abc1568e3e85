import { describe, expect, it } from 'vitest';

describe('zod-jitless', () => {
  it('turns zod jitless when imported before zod (no eval probe under the CSP)', async () => {
    await import('./zod-jitless');
    const { config } = await import('zod');
    expect(config().jitless).toBe(true);
  });
});
