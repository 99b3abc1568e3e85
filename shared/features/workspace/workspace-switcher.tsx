import { HStack, Image, NativeSelect } from '@chakra-ui/react';
import { useBusinessLogo } from '../../lib/use-business-logo';
import { useWorkspaces } from './use-workspaces';

const roleLabel: Record<string, string> = { owner: 'Owner', manager: 'Manager', cashier: 'Cashier' };

/**
 * Chooses the business the Business screens show; the choice is remembered on this device. The chosen business's
 * logo stands beside it (a public URL: no signed link per page view).
 */
export function WorkspaceSwitcher() {
  const { workspaces, current, choose } = useWorkspaces();
  const logo = useBusinessLogo(current?.id);
  if (workspaces.length === 0 || !current) return null;
  return (
    <HStack gap="2" minW="0">
      {logo.url && <Image src={logo.url} alt={`${current.name} logo`} h="7" maxW="16" objectFit="contain" data-testid="header-logo" />}
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
    </HStack>
  );
}
