import { ButtonGroup, Flex, IconButton, Text } from '@chakra-ui/react';
import { LuChevronLeft, LuChevronRight, LuChevronsLeft, LuChevronsRight } from 'react-icons/lu';
import { formatCount, pageInfo } from './pagination';

export interface PaginationControlsProps {
  page: number;
  pageSize: number;
  total: number;
  /** "users", "plans": what the list counts. */
  noun: string;
  onPageChange: (page: number) => void;
  disabled?: boolean;
}

/** "Showing 21–40 of 100,004 users", the page number, and first/previous/next/last buttons. */
export function PaginationControls({ page, pageSize, total, noun, onPageChange, disabled }: PaginationControlsProps) {
  const { pageCount, first, last, hasPrevious, hasNext } = pageInfo(page, pageSize, total);
  return (
    <Flex as="nav" aria-label={`Pages of ${noun}`} mt="4" gap="3" align="center" justify="space-between" wrap="wrap">
      <Text fontSize="sm" color="fg.muted" aria-live="polite" data-testid="page-summary">
        {total === 0 ? `No ${noun}` : `Showing ${formatCount(first)}–${formatCount(last)} of ${formatCount(total)} ${noun}`}
      </Text>
      <Flex gap="2" align="center">
        <Text fontSize="sm" data-testid="page-number">
          Page {formatCount(page)} of {formatCount(pageCount)}
        </Text>
        <ButtonGroup size="sm" variant="outline" attached>
          <IconButton aria-label="First page" disabled={disabled || !hasPrevious} onClick={() => onPageChange(1)}>
            <LuChevronsLeft />
          </IconButton>
          <IconButton aria-label="Previous page" disabled={disabled || !hasPrevious} onClick={() => onPageChange(page - 1)}>
            <LuChevronLeft />
          </IconButton>
          <IconButton aria-label="Next page" disabled={disabled || !hasNext} onClick={() => onPageChange(page + 1)}>
            <LuChevronRight />
          </IconButton>
          <IconButton aria-label="Last page" disabled={disabled || !hasNext} onClick={() => onPageChange(pageCount)}>
            <LuChevronsRight />
          </IconButton>
        </ButtonGroup>
      </Flex>
    </Flex>
  );
}
