import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { LuRefreshCw } from 'react-icons/lu';
import { isConnectionError, NO_CONNECTION } from '../lib/connection-error';

export interface LoadErrorProps {
  /** What could not be loaded, in the user's words: "We couldn't load your billing history." */
  message: string;
  /** The service's own message, shown smaller so support can act on it (a lost connection is said as such). */
  error?: Error | null;
  onRetry: () => void;
}

/** A failed load: says what failed and offers a retry, instead of leaving a blank card. */
export function LoadError({ message, error, onRetry }: LoadErrorProps) {
  const detail = isConnectionError(error) ? NO_CONNECTION : error?.message;
  return (
    <Stack role="alert" gap="2" borderWidth="1px" borderColor="border.error" bg="bg.error" rounded="md" p="3">
      <Text fontWeight="medium" color="fg.error">
        {message}
      </Text>
      {detail && (
        <Text fontSize="sm" color="fg.muted">
          {detail}
        </Text>
      )}
      <HStack>
        <Button size="sm" variant="outline" onClick={onRetry}>
          <LuRefreshCw aria-hidden /> Retry
        </Button>
      </HStack>
    </Stack>
  );
}
