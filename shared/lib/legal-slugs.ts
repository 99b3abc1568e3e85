/** The five legal pages (spec 2): their addresses and titles, for the public pages, the admin editor and the live script. */
export const legalSlugs = [
  'privacy-policy',
  'terms-of-service',
  'cookie-policy',
  'gdpr-compliance',
  'data-security-policy',
] as const;
export type LegalSlug = (typeof legalSlugs)[number];

export const legalTitles: Record<LegalSlug, string> = {
  'privacy-policy': 'Privacy Policy',
  'terms-of-service': 'Terms of Service',
  'cookie-policy': 'Cookie Policy',
  'gdpr-compliance': 'GDPR Compliance',
  'data-security-policy': 'Data Security Policy',
};
