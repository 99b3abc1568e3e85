export { legalSlugs, legalTitles, type LegalSlug } from '../../lib/legal-slugs';

export interface LegalSection {
  heading: string;
  /** Text in [square brackets] is a placeholder still to be filled in, and is highlighted as such. */
  paragraphs: string[];
  list?: string[];
}

export interface LegalDocument {
  title: string;
  /** ISO date of the current version (spec 2: 13/09/2025 or 09/16/2025). */
  updated: string;
  summary: string;
  sections: LegalSection[];
}
