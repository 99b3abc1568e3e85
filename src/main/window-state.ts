import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/**
 * The main window's last size and position, in a small JSON file in userData. The file is user-writable,
 * so it is validated, and the bounds are clamped to a display that still exists (a laptop undocked from
 * its second monitor must not open the window off-screen).
 */
export const windowStateSchema = z.object({
  x: z.number().int().min(-100_000).max(100_000).optional(),
  y: z.number().int().min(-100_000).max(100_000).optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, maximized: false };
export const MIN_WIDTH = 960;
export const MIN_HEIGHT = 640;
/** How much of the title bar must be visible on some display for the saved position to be kept. */
const MIN_VISIBLE = 100;

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/** Keeps the saved position only if enough of the window shows on a current display; shrinks to fit it. */
export function clampToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  const primary = workAreas[0];
  if (!primary) return state;
  if (state.x === undefined || state.y === undefined) {
    return { ...state, width: Math.min(state.width, primary.width), height: Math.min(state.height, primary.height) };
  }
  const window: Rect = { x: state.x, y: state.y, width: state.width, height: state.height };
  const titleBar: Rect = { ...window, height: Math.min(40, window.height) };
  const host = workAreas.find((area) => {
    const seen = overlap(titleBar, area);
    return seen.width >= MIN_VISIBLE && seen.height > 0;
  });
  if (!host) {
    // Off every screen: forget the position, let Electron center the window on the primary display.
    return { width: Math.min(state.width, primary.width), height: Math.min(state.height, primary.height), maximized: state.maximized };
  }
  const width = Math.min(state.width, host.width);
  const height = Math.min(state.height, host.height);
  return {
    x: Math.min(Math.max(state.x, host.x), host.x + host.width - width),
    y: Math.min(Math.max(state.y, host.y), host.y + host.height - height),
    width,
    height,
    maximized: state.maximized,
  };
}

export async function loadWindowState(filePath: string): Promise<WindowState> {
  try {
    const parsed = windowStateSchema.safeParse(JSON.parse(await readFile(filePath, 'utf8')));
    return parsed.success ? parsed.data : DEFAULT_WINDOW_STATE;
  } catch {
    return DEFAULT_WINDOW_STATE;
  }
}

/** Write-then-rename so a crash mid-write never leaves a half file behind. */
export async function saveWindowState(filePath: string, state: WindowState): Promise<void> {
  const valid = windowStateSchema.parse(state);
  await mkdir(path.dirname(filePath), { recursive: true });
  const temp = `${filePath}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(valid), 'utf8');
  await rename(temp, filePath);
}
