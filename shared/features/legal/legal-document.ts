export const legalSlugs = [
  'privacy-policy',
  'terms-of-service',
  'cookie-policy',
  'gdpr-compliance',
  'data-security-policy',
] as const;
export type LegalSlug = (typeof legalSlugs)[number];

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

export const legalTitles: Record<LegalSlug, string> = {
  'privacy-policy': 'Privacy Policy',
  'terms-of-service': 'Terms of Service',
  'cookie-policy': 'Cookie Policy',
  'gdpr-compliance': 'GDPR Compliance',
  'data-security-policy': 'Data Security Policy',
};
