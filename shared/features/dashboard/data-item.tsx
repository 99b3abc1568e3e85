import { DataList } from '@chakra-ui/react';

/** One label/value row of a read-only details block. */
export function DataItem({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel minW="10rem">{label}</DataList.ItemLabel>
      <DataList.ItemValue wordBreak="break-all" data-testid={testId}>
        {value}
      </DataList.ItemValue>
    </DataList.Item>
  );
}
