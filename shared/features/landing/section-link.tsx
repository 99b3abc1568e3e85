import { Link, type LinkProps } from '@chakra-ui/react';
import { scrollToSection, type LandingSectionId } from './sections';

type SectionLinkProps = Omit<LinkProps, 'href' | 'onClick'> & { section: LandingSectionId; onNavigate?: () => void };

/** An in-page anchor that scrolls smoothly on both routers (see scrollToSection). */
export function SectionLink({ section, onNavigate, ...props }: SectionLinkProps) {
  return (
    <Link
      href={`#${section}`}
      onClick={(event) => {
        event.preventDefault();
        onNavigate?.();
        scrollToSection(section);
      }}
      {...props}
    />
  );
}
