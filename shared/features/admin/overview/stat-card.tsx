import { Box, HStack, Stat } from '@chakra-ui/react';
import type { IconType } from 'react-icons';

export interface StatCardProps {
  label: string;
  value: string;
  help: string;
  icon: IconType;
  testId: string;
}

/** One admin figure. */
export function StatCard({ label, value, help, icon: Icon, testId }: StatCardProps) {
  return (
    <HStack align="flex-start" justify="space-between" bg="bg" borderWidth="1px" rounded="lg" p="5" data-testid={testId}>
      <Stat.Root>
        <Stat.Label>{label}</Stat.Label>
        <Stat.ValueText data-testid={`${testId}-value`}>{value}</Stat.ValueText>
        {/* Chakra renders help text as a span, which a <dl> may not hold: make it a second <dd>. */}
        <Stat.HelpText asChild>
          <dd>{help}</dd>
        </Stat.HelpText>
      </Stat.Root>
      <Box color="blue.fg" fontSize="xl">
        <Icon aria-hidden />
      </Box>
    </HStack>
  );
}
