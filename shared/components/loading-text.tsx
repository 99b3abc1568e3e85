import { HStack, Spinner, Text } from '@chakra-ui/react';

/** The spec's "Loading..." placeholder, announced politely to screen readers. */
export function LoadingText({ label = 'Loading...' }: { label?: string }) {
  return (
    <HStack role="status" gap="2" color="fg.muted" py="2">
      <Spinner size="sm" aria-hidden />
      <Text>{label}</Text>
    </HStack>
  );
}
