import { Stack, Text, type StackProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Loaded } from './loaded';
import type { Load } from './use-load';

interface LoadedListProps<T> {
  load: Load<T[]>;
  errorMessage: string;
  /** The spec's text for a section with no rows. */
  emptyText: string;
  testId: string;
  gap?: StackProps['gap'];
  /** One `<li>` (with its key) per item. */
  children: (item: T) => ReactNode;
}

/** A dashboard section's rows as a list, once loaded: the empty text when there are none (see Loaded). */
export function LoadedList<T>({ load, errorMessage, emptyText, testId, gap = '0', children }: LoadedListProps<T>) {
  return (
    <Loaded load={load} errorMessage={errorMessage}>
      {(items) =>
        items.length === 0 ? (
          <Text color="fg.muted">{emptyText}</Text>
        ) : (
          <Stack as="ul" gap={gap} listStyleType="none" data-testid={testId}>
            {items.map(children)}
          </Stack>
        )
      }
    </Loaded>
  );
}
