import type { ReactNode } from 'react';
import { DataList } from '@chakra-ui/react';

/**
 * One label/value row of a read-only details block. Values wrap at their natural break points (ids and
 * emails through BreakableText) and split mid-word only when one word is wider than the column.
 */
export function DataItem({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel minW="10rem">{label}</DataList.ItemLabel>
      <DataList.ItemValue overflowWrap="anywhere" data-testid={testId}>
        {value}
      </DataList.ItemValue>
    </DataList.Item>
  );
}
