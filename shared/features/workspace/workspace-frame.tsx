import type { ReactNode } from 'react';
import { BusinessGlance } from './business-glance';
import { WorkspaceProvider } from './use-workspaces';
import { WorkspaceSwitcher } from './workspace-switcher';

/*
 * What the workspace feature lends the dashboard (which receives these through props: features do not import
 * each other): one provider around every dashboard screen, the header's switcher and the Overview's card.
 */
export function WorkspaceFrame({ children }: { children: ReactNode }) {
  return <WorkspaceProvider>{children}</WorkspaceProvider>;
}

export { BusinessGlance, WorkspaceSwitcher };
