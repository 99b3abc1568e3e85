import { describe, expect, it, vi } from 'vitest';

/** The preload entry against a fake 'electron': what reaches the page is the small API, never ipcRenderer. */
const fake = vi.hoisted(() => ({
  exposed: [] as Array<[string, unknown]>,
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn(), send: vi.fn(), sendSync: vi.fn() },
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.push([key, api]) },
  ipcRenderer: fake.ipcRenderer,
}));

describe('preload entry', () => {
  it('exposes exactly one object, window.storewise, with task-level functions only', async () => {
    await import('./index');
    expect(fake.exposed.map(([key]) => key)).toEqual(['storewise']);
    const api = fake.exposed[0]![1] as Record<string, Record<string, unknown>>;
    expect(Object.keys(api).sort()).toEqual(['app', 'auth', 'links', 'machine', 'printing', 'session']);
    const values = Object.values(api).flatMap((namespace) => Object.values(namespace));
    expect(values.every((value) => typeof value === 'function')).toBe(true);
    // Neither ipcRenderer nor any of its methods is reachable from the page.
    expect(values).not.toContain(fake.ipcRenderer);
    for (const method of Object.values(fake.ipcRenderer)) expect(values).not.toContain(method);
  });
});
