import type { ReactNode } from 'react';
import { Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';

/** One titled card of a Business screen; the title is a real heading for screen readers. */
export function WorkspaceCard({ title, description, actions, children }: {
  title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode;
}) {
  return (
    <Card.Root as="section" aria-label={title} size="sm" variant="outline" bg="bg">
      <Card.Header>
        <Flex gap="3" align="flex-start" justify="space-between" wrap="wrap">
          <Stack gap="1" minW="0">
            <Heading as="h2" size="md">{title}</Heading>
            {description && <Text fontSize="sm" color="fg.muted">{description}</Text>}
          </Stack>
          {actions}
        </Flex>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
