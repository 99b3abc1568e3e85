import { Button, Code, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LuCopy } from 'react-icons/lu';
import { notify } from '../../../components/toaster';

/** The one moment recovery codes can be read: shown with a copy button and a plain warning. */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify.success('Copied', 'Keep the recovery codes somewhere safe, away from your phone.');
    } catch {
      notify.error('Copy failed', 'Select the codes and copy them by hand.');
    }
  };
  return (
    <Stack gap="3">
      <Text fontSize="sm">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They will not
        be shown again.
      </Text>
      <SimpleGrid as="ul" columns={2} gap="2" data-testid="recovery-codes" listStyleType="none">
        {codes.map((code) => (
          <li key={code}>
            <Code fontSize="md">{code}</Code>
          </li>
        ))}
      </SimpleGrid>
      <div>
        <Button size="sm" variant="outline" onClick={() => void copy()}>
          <LuCopy aria-hidden /> Copy codes
        </Button>
      </div>
    </Stack>
  );
}
