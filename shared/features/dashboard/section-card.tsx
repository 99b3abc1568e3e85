import type { ReactNode } from 'react';
import { Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';

interface SectionCardProps {
  title: string;
  description?: string;
  /** Buttons at the right of the title (wrap below it on narrow screens). */
  actions?: ReactNode;
  children: ReactNode;
}

/** One titled card of a dashboard screen; its title is a real heading so screen readers can jump to it. */
export function SectionCard({ title, description, actions, children }: SectionCardProps) {
  return (
    <Card.Root as="section" aria-label={title} size="sm" variant="outline" bg="bg">
      <Card.Header>
        <Flex gap="3" align="flex-start" justify="space-between" wrap="wrap">
          <Stack gap="1" minW="0">
            <Heading as="h2" size="md">
              {title}
            </Heading>
            {description && (
              <Text fontSize="sm" color="fg.muted">
                {description}
              </Text>
            )}
          </Stack>
          {actions}
        </Flex>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
