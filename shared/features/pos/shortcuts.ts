/**
 * The register's keyboard shortcuts: Alt + a letter (function keys are taken by browsers: F1 help, F3 find, F5
 * reload, F6/F7 focus and caret browsing). Matched on event.code so a keyboard layout or macOS's Option
 * characters do not change them. Every button shows its shortcut and carries aria-keyshortcuts.
 */
export const SHORTCUTS = {
  search: { code: 'KeyK', label: 'Alt+K', aria: 'Alt+K' },
  discount: { code: 'KeyD', label: 'Alt+D', aria: 'Alt+D' },
  customer: { code: 'KeyC', label: 'Alt+C', aria: 'Alt+C' },
  park: { code: 'KeyP', label: 'Alt+P', aria: 'Alt+P' },
  resume: { code: 'KeyR', label: 'Alt+R', aria: 'Alt+R' },
  refund: { code: 'KeyF', label: 'Alt+F', aria: 'Alt+F' },
  shift: { code: 'KeyS', label: 'Alt+S', aria: 'Alt+S' },
  pay: { code: 'KeyT', label: 'Alt+T', aria: 'Alt+T' },
  switch: { code: 'KeyU', label: 'Alt+U', aria: 'Alt+U' },
  cash: { code: 'Digit1', label: 'Alt+1', aria: 'Alt+1' },
  card: { code: 'Digit2', label: 'Alt+2', aria: 'Alt+2' },
  other: { code: 'Digit3', label: 'Alt+3', aria: 'Alt+3' },
} as const;

export type ShortcutName = keyof typeof SHORTCUTS;

/** The shortcut a key event is, if any (Alt alone: not with Ctrl or Meta, which are the browser's). */
export function shortcutOf(event: { altKey: boolean; ctrlKey: boolean; metaKey: boolean; code: string }): ShortcutName | null {
  if (!event.altKey || event.ctrlKey || event.metaKey) return null;
  for (const [name, s] of Object.entries(SHORTCUTS)) if (s.code === event.code) return name as ShortcutName;
  return null;
}
