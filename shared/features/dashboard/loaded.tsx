import type { ReactNode } from 'react';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import type { Load } from './use-load';

/** Renders a section's data once loaded; "Loading..." before, the error and a Retry when it failed. */
export function Loaded<T>({ load, errorMessage, children }: { load: Load<T>; errorMessage: string; children: (data: T) => ReactNode }) {
  const { state } = load;
  if (state.status === 'loading') return <LoadingText />;
  if (state.status === 'error') return <LoadError message={errorMessage} error={state.error} onRetry={load.reload} />;
  return <>{children(state.data)}</>;
}
