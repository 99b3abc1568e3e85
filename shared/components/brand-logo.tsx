import { HStack, Text } from '@chakra-ui/react';
import { BrandMark } from './light/brand-mark';

// The mark is shared with the light auth shells (docs/adr/0168), which must not import Chakra.
export { BrandMark };

/** Mark plus the product name; the name is text so screen readers announce the brand. */
export function BrandLogo({ inverted = false }: { inverted?: boolean }) {
  return (
    <HStack gap="2">
      <BrandMark />
      <Text as="span" fontWeight="bold" fontSize="xl" color={inverted ? 'white' : 'fg'}>
        Storewise
      </Text>
    </HStack>
  );
}
