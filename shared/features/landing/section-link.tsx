import { Link, type LinkProps } from '@chakra-ui/react';
import type { MouseEvent } from 'react';
import { closeMenuOf } from './menu-links';
import { scrollToSection, type LandingSectionId } from './sections';

/**
 * An in-page anchor's props: a real `#section` link, which the visitor's static landing follows natively
 * (smooth scrolling by CSS, docs/adr/0167), and a click handler for where React runs: the desktop app's hash
 * router would read a bare fragment as a route, so there it scrolls in script (see scrollToSection). Choosing
 * it inside the mobile menu closes the menu.
 */
export function sectionLinkProps(section: LandingSectionId) {
  return {
    href: `#${section}`,
    onClick: (event: MouseEvent<HTMLAnchorElement>) => {
      event.preventDefault();
      closeMenuOf(event.currentTarget);
      scrollToSection(section);
    },
  };
}

type SectionLinkProps = Omit<LinkProps, 'href' | 'onClick'> & { section: LandingSectionId };

/** A text link to a landing section (header, mobile menu, footer). */
export function SectionLink({ section, ...props }: SectionLinkProps) {
  return <Link {...sectionLinkProps(section)} {...props} />;
}
