import { Box, Stack, Text } from '@chakra-ui/react';
import type { ThreadMessage } from './thread-api';

/** The conversation, oldest first: who wrote each message and when. Staff messages are tinted. */
export function ThreadMessages({ messages }: { messages: ThreadMessage[] }) {
  return (
    <Stack as="ol" gap="3" listStyleType="none" aria-label="Conversation" data-testid="thread">
      {messages.map((message, index) => (
        <Box as="li" key={message.id} borderWidth="1px" rounded="md" p="3" bg={message.is_staff ? 'blue.subtle' : 'bg'}
          data-testid="thread-message" data-staff={message.is_staff}>
          <Text fontSize="sm" color="fg.muted" mb="1">
            <Text as="span" fontWeight="semibold" color="fg">{message.author_name}</Text>
            {message.is_staff ? ' (support)' : ''}
            {index === 0 ? ' opened the ticket' : ''} · {new Date(message.created_at).toLocaleString()}
          </Text>
          <Text whiteSpace="pre-wrap" overflowWrap="anywhere">{message.body}</Text>
        </Box>
      ))}
    </Stack>
  );
}
