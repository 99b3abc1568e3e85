import type { LegalDocument } from '../legal-document';

export const gdprCompliance: LegalDocument = {
  title: 'GDPR Compliance',
  updated: '2025-09-16',
  summary:
    'How Storewise meets the EU and UK General Data Protection Regulation for the shop owners who use our platform and the people whose data they keep in it.',
  sections: [
    {
      heading: '1. Our roles',
      paragraphs: [
        'Storewise is the controller of account, billing and security data about our customers. For the customer and staff records a store keeps in Storewise, the store is the controller and Storewise is its processor, acting only on the store\u2019s documented instructions under our Data Processing Agreement.',
      ],
    },
    {
      heading: '2. Principles we follow',
      paragraphs: ['We design the product around the principles of Article 5 GDPR:'],
      list: [
        'data minimisation: forms ask only for what the feature needs;',
        'purpose limitation: we never use store data for our own marketing;',
        'storage limitation: data of closed accounts is deleted or anonymised within 90 days, billing records excepted;',
        'integrity and confidentiality: see our Data Security Policy.',
      ],
    },
    {
      heading: '3. Data subject rights',
      paragraphs: [
        'Individuals can exercise their rights of access, rectification, erasure, restriction, portability and objection by writing to privacy@storewise.example. Where a request concerns a store\u2019s records, we pass it to that store and help it respond within one month.',
      ],
    },
    {
      heading: '4. Sub-processors and transfers',
      paragraphs: [
        'We keep a list of the sub-processors we use for hosting, email and payments and give customers 30 days notice before adding one. Transfers outside the EEA and UK rely on adequacy decisions or the European Commission\u2019s Standard Contractual Clauses.',
      ],
    },
    {
      heading: '5. Personal data breaches',
      paragraphs: [
        'If a breach affects personal data, we notify the competent supervisory authority within 72 hours of becoming aware of it, and tell affected customers without undue delay with the information they need to meet their own obligations.',
      ],
    },
    {
      heading: '6. Records and accountability',
      paragraphs: [
        'We maintain records of processing activities, carry out data protection impact assessments for new high-risk features, and train every employee who handles personal data. Our data protection contact is privacy@storewise.example.',
      ],
    },
  ],
};
