import { Heading, Stack, Text } from '@chakra-ui/react';

/** The title of a dashboard screen: its one h1. */
export function PageHeader({ title, description }: { title: string; description?: string }) {
  return (
    <Stack gap="1" mb="6">
      <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
        {title}
      </Heading>
      {description && <Text color="fg.muted">{description}</Text>}
    </Stack>
  );
}
