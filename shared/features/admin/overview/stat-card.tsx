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
    <Stat.Root bg="bg" borderWidth="1px" rounded="lg" p="5" data-testid={testId}>
      <HStack justify="space-between">
        <Stat.Label>{label}</Stat.Label>
        <Box color="blue.fg">
          <Icon aria-hidden />
        </Box>
      </HStack>
      <Stat.ValueText data-testid={`${testId}-value`}>{value}</Stat.ValueText>
      <Stat.HelpText>{help}</Stat.HelpText>
    </Stat.Root>
  );
}
