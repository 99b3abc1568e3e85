import { Text } from '@chakra-ui/react';

/**
 * A table cell's long free text (names run to 100 characters) on one line, cut with an ellipsis at `maxW`,
 * the whole text in the tooltip and for screen readers, so one long name cannot widen the table past the
 * screen.
 */
export function TruncatedText({ text, maxW }: { text: string; maxW: string }) {
  return (
    <Text as="span" display="block" maxW={maxW} truncate title={text}>
      {text}
    </Text>
  );
}
