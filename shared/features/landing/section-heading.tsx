import { Heading, Stack, Text } from '@chakra-ui/react';

/** Eyebrow, h2 and lead text shared by the landing sections. */
export function SectionHeading({ id, eyebrow, title, lead }: { id: string; eyebrow: string; title: string; lead: string }) {
  return (
    <Stack gap="3" textAlign="center" align="center" mb={{ base: '8', md: '12' }}>
      <Text fontSize="sm" fontWeight="semibold" color="blue.fg" textTransform="uppercase" letterSpacing="wider">
        {eyebrow}
      </Text>
      <Heading as="h2" id={id} fontSize={{ base: '2xl', md: '4xl' }}>
        {title}
      </Heading>
      <Text color="fg.muted" maxW="2xl" fontSize={{ base: 'md', md: 'lg' }}>
        {lead}
      </Text>
    </Stack>
  );
}
