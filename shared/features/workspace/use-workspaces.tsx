import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useAuth } from '../../lib/auth-provider';
import { onPlanChanged } from '../../lib/plan-changed-event';
import { useSupabase } from '../../lib/platform-context';
import { pickWorkspace, readRememberedWorkspace, rememberWorkspace } from './remembered-workspace';
import { fetchWorkspaces, type Workspace } from './workspace-api';

interface WorkspaceContextValue {
  status: 'loading' | 'error' | 'ready';
  error: Error | null;
  workspaces: Workspace[];
  current: Workspace | null;
  userId: string;
  choose: (id: string) => void;
  reload: () => void;
}

const WorkspaceContext = createContext<WorkspaceContextValue | null>(null);

const deviceStorage = (): Storage | undefined => (typeof window === 'undefined' ? undefined : window.localStorage);

/**
 * The caller's workspaces and the one chosen on this device, for every Business screen. The dashboard wraps
 * all its screens in one (the header's switcher and the Overview share it); a nested provider reuses it.
 */
export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const outer = useContext(WorkspaceContext);
  return outer ? children : <WorkspaceState>{children}</WorkspaceState>;
}

function WorkspaceState({ children }: { children: ReactNode }) {
  const supabase = useSupabase();
  const { user } = useAuth();
  const userId = user?.id ?? '';
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ key: string; workspaces: Workspace[]; error: Error | null } | null>(null);
  const [chosen, setChosen] = useState<string | null>(() => readRememberedWorkspace(deviceStorage(), userId));
  const key = `${userId}#${version}`;

  useEffect(() => {
    let cancelled = false;
    fetchWorkspaces(supabase).then(
      (workspaces) => !cancelled && setState({ key, workspaces, error: null }),
      (error: unknown) => {
        if (cancelled) return;
        console.error('Workspaces load failed:', error);
        setState({ key, workspaces: [], error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [supabase, key]);

  const choose = useCallback((id: string) => {
    rememberWorkspace(deviceStorage(), userId, id);
    setChosen(id);
  }, [userId]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  // A plan chosen on the Billing page changes every limit this provider shows.
  useEffect(() => onPlanChanged(reload), [reload]);

  const value = useMemo<WorkspaceContextValue>(() => {
    const loaded = state?.key === key ? state : null;
    const workspaces = loaded?.workspaces ?? state?.workspaces ?? [];
    return {
      status: loaded ? (loaded.error ? 'error' : 'ready') : state ? 'ready' : 'loading',
      error: loaded?.error ?? null,
      workspaces,
      current: pickWorkspace(workspaces, chosen),
      userId,
      choose,
      reload,
    };
  }, [state, key, chosen, userId, choose, reload]);

  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspaces(): WorkspaceContextValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspaces must be used inside WorkspaceProvider');
  return value;
}
