/**
 * The workspace chosen on this device, remembered in localStorage per user (a shared back-office PC keeps
 * each person's choice). Only an id is stored; the list of workspaces always comes from the database.
 */
const keyFor = (userId: string) => `storewise.workspace.${userId}`;

export function readRememberedWorkspace(storage: Pick<Storage, 'getItem'> | undefined, userId: string): string | null {
  try {
    return storage?.getItem(keyFor(userId)) ?? null;
  } catch {
    return null; // storage disabled (privacy mode): fall back to the first workspace
  }
}

export function rememberWorkspace(storage: Pick<Storage, 'setItem'> | undefined, userId: string, id: string): void {
  try {
    storage?.setItem(keyFor(userId), id);
  } catch {
    // Not remembered; the choice still holds for this visit.
  }
}

/** The remembered workspace when it is still one of the user's, else the first (owned ones come first). */
export function pickWorkspace<T extends { id: string }>(workspaces: T[], remembered: string | null): T | null {
  return workspaces.find((w) => w.id === remembered) ?? workspaces[0] ?? null;
}
