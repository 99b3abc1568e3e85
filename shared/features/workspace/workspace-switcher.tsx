import { NativeSelect } from '@chakra-ui/react';
import { useWorkspaces } from './use-workspaces';

const roleLabel: Record<string, string> = { owner: 'Owner', manager: 'Manager', cashier: 'Cashier' };

/** Chooses the business the Business screens show; the choice is remembered on this device. */
export function WorkspaceSwitcher() {
  const { workspaces, current, choose } = useWorkspaces();
  if (workspaces.length === 0 || !current) return null;
  return (
    <NativeSelect.Root size="sm" maxW="72">
      <NativeSelect.Field aria-label="Workspace" value={current.id} onChange={(e) => choose(e.currentTarget.value)}>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} ({roleLabel[w.role] ?? w.role})
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
