import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clampToDisplays, DEFAULT_WINDOW_STATE, loadWindowState, saveWindowState } from './window-state';

const dir = mkdtempSync(path.join(tmpdir(), 'storewise-window-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const laptop = { x: 0, y: 0, width: 1440, height: 900 };
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('clampToDisplays', () => {
  it('keeps a window that is fully visible', () => {
    const state = { x: 100, y: 100, width: 1200, height: 800, maximized: false };
    expect(clampToDisplays(state, [laptop, rightMonitor])).toEqual(state);
  });

  it('keeps a window on the second monitor while it is connected', () => {
    const state = { x: 2000, y: 200, width: 1600, height: 1000, maximized: true };
    expect(clampToDisplays(state, [laptop, rightMonitor])).toEqual(state);
  });

  it('drops the position when its monitor is gone, and shrinks to the primary display', () => {
    expect(clampToDisplays({ x: 2000, y: 200, width: 1600, height: 1000, maximized: false }, [laptop])).toEqual({
      width: 1440,
      height: 900,
      maximized: false,
    });
  });

  it('pulls a partly visible window back inside its display', () => {
    expect(clampToDisplays({ x: 1000, y: -10, width: 1200, height: 800, maximized: false }, [laptop])).toEqual({
      x: 240,
      y: 0,
      width: 1200,
      height: 800,
      maximized: false,
    });
  });
});

describe('window state file', () => {
  it('round-trips through disk', async () => {
    const file = path.join(dir, 'nested', 'window-state.json');
    await saveWindowState(file, { x: 5, y: 6, width: 1000, height: 700, maximized: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 5, y: 6, width: 1000, height: 700, maximized: true });
    expect(await loadWindowState(file)).toEqual({ x: 5, y: 6, width: 1000, height: 700, maximized: true });
  });

  it.each([
    ['missing', null],
    ['not JSON', '{oops'],
    ['wrong types', JSON.stringify({ width: '1000', height: 700 })],
    ['absurd size', JSON.stringify({ width: 10, height: 10 })],
    ['non-integer', JSON.stringify({ x: 1.5, y: 2, width: 1000, height: 700 })],
  ])('falls back to the default when the file is %s', async (name, content) => {
    const file = path.join(dir, `${name.replace(/\W/g, '-')}.json`);
    if (content !== null) writeFileSync(file, content);
    expect(await loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
  });
});
