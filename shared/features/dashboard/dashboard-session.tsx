import { createContext, useContext } from 'react';
import type { Session, User } from '@supabase/supabase-js';

export interface DashboardSession {
  user: User;
  session: Session;
  /** Signs this device out and leaves for the landing page (no detour through /auth). */
  signOut: () => Promise<void>;
}

export const DashboardSessionContext = createContext<DashboardSession | null>(null);

/** The signed-in user inside the dashboard: the guard in DashboardApp guarantees there is one. */
export function useDashboardSession(): DashboardSession {
  const value = useContext(DashboardSessionContext);
  if (!value) throw new Error('useDashboardSession must be used inside DashboardApp');
  return value;
}

/** user_metadata is free-form JSON: read the full name only when it is a string. */
export function metadataFullName(user: User): string | null {
  const value: unknown = user.user_metadata?.full_name;
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}
