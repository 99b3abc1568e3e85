import type { LegalDocument } from '../legal-document';

export const dataSecurityPolicy: LegalDocument = {
  title: 'Data Security Policy',
  updated: '2025-09-16',
  summary:
    'The technical and organisational measures Storewise takes to protect the data of the stores that use our platform.',
  sections: [
    {
      heading: '1. Access control',
      paragraphs: [
        'Every request to our database is checked against row-level security rules, so each account can read and change only its own records. Administrative access is limited to named staff, reviewed quarterly and logged.',
      ],
    },
    {
      heading: '2. Encryption',
      paragraphs: [
        'Data travels over TLS 1.2 or later and is encrypted at rest with AES-256. Passwords are stored only as salted one-way hashes. On the desktop app, sign-in tokens are kept in the operating system\u2019s keychain rather than in plain files.',
      ],
    },
    {
      heading: '3. Accounts and sessions',
      paragraphs: [
        'You can review your sign-in activity and active sessions in the Security page of your dashboard. Password reset links are single-use and expire quickly.',
      ],
    },
    {
      heading: '4. Backups and availability',
      paragraphs: [
        'Databases are backed up daily to a separate location and backups are restored in tests every quarter. Our infrastructure is monitored around the clock with a 99.9% uptime target.',
      ],
    },
    {
      heading: '5. Secure development',
      paragraphs: [
        'Code changes are reviewed by a second engineer and tested automatically before release. Dependencies are scanned for known vulnerabilities, and we welcome reports from security researchers at security@storewise.example.',
      ],
    },
    {
      heading: '6. Incident response',
      paragraphs: [
        'We keep an incident response plan that is rehearsed yearly. If an incident affects personal data, we notify the supervisory authority within 72 hours and inform affected customers without undue delay.',
      ],
    },
  ],
};
