import { Heading, Stack, Text } from '@chakra-ui/react';

/** Title and one line of context at the top of every admin screen (the page's only h1). */
export function PageHeader({ title, description }: { title: string; description?: string }) {
  return (
    <Stack gap="1" mb="6">
      <Heading as="h1" size="2xl">
        {title}
      </Heading>
      {description && <Text color="fg.muted">{description}</Text>}
    </Stack>
  );
}
