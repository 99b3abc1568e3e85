import { describe, expect, it } from 'vitest';
import { pickWorkspace, readRememberedWorkspace, rememberWorkspace } from './remembered-workspace';

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe('remembered workspace', () => {
  it('is kept per user on this device', () => {
    const storage = memoryStorage();
    rememberWorkspace(storage, 'user-a', 'biz-2');
    expect(readRememberedWorkspace(storage, 'user-a')).toBe('biz-2');
    expect(readRememberedWorkspace(storage, 'user-b')).toBeNull();
  });

  it('falls back to the first workspace when the remembered one is gone (removed from it)', () => {
    const list = [{ id: 'biz-1' }, { id: 'biz-2' }];
    expect(pickWorkspace(list, 'biz-2')).toEqual({ id: 'biz-2' });
    expect(pickWorkspace(list, 'biz-9')).toEqual({ id: 'biz-1' });
    expect(pickWorkspace([], 'biz-9')).toBeNull();
  });

  it('survives a storage that throws', () => {
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(readRememberedWorkspace(broken, 'u')).toBeNull();
    expect(() => rememberWorkspace(broken, 'u', 'x')).not.toThrow();
  });
});
