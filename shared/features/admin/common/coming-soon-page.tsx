import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { LuConstruction } from 'react-icons/lu';
import { PageHeader } from './page-header';

/** The tidy placeholder for admin screens the spec lists but does not describe yet. */
export function ComingSoonPage({ title, summary }: { title: string; summary: string }) {
  return (
    <>
      <PageHeader title={title} description={summary} />
      <Stack
        data-testid="coming-soon"
        align="center"
        textAlign="center"
        gap="3"
        py="16"
        px="6"
        bg="bg"
        borderWidth="1px"
        borderStyle="dashed"
        rounded="lg"
      >
        <Box color="blue.fg" fontSize="4xl">
          <LuConstruction aria-hidden />
        </Box>
        <Heading as="h2" size="lg">
          Coming Soon
        </Heading>
        <Text color="fg.muted" maxW="md">
          {title} is on its way to the Storewise admin panel. Until then, contact the Storewise engineering team for
          anything that cannot wait.
        </Text>
      </Stack>
    </>
  );
}
