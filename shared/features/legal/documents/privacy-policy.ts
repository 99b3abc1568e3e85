import type { LegalDocument } from '../legal-document';

export const privacyPolicy: LegalDocument = {
  title: 'Privacy Policy',
  updated: '2025-09-13',
  summary:
    'This policy explains what personal information Storewise collects when you use our retail management platform and the online marketplace for lifestyle, grocery and urban-living goods run on it, why we collect it, and the choices you have.',
  sections: [
    {
      heading: '1. Who we are',
      paragraphs: [
        'Storewise ("we", "us") provides software that shop owners use to run their stores, and a marketplace where those stores offer lifestyle, grocery and urban-living goods. Storewise is the controller of the account data described here. When a store uses Storewise to keep records about its own customers, the store is the controller of those records and we process them on its behalf.',
      ],
    },
    {
      heading: '2. Information we collect',
      paragraphs: ['We collect only what we need to provide and secure the service:'],
      list: [
        'Account details: your full name, email address, password (stored only as a one-way hash), phone number, business name and business type.',
        'Subscription and billing details: your plan, billing cycle, invoices and the last four digits and expiry of saved payment cards. Full card numbers are handled by our payment processor and never reach our servers.',
        'Security information: sign-in times, device type, approximate location derived from your IP address, and active sessions, so that you can spot access you do not recognise.',
        'Support requests: the subject, message and any attachment you send us.',
        'Sign-in through Google: your name, email address and profile picture as shared by Google with your consent.',
      ],
    },
    {
      heading: '3. How we use your information',
      paragraphs: [
        'We use your information to create and secure your account, provide the features of your plan, process payments, send service emails (such as confirmation and password reset links), answer support requests, and meet our legal obligations. We do not sell personal information and we do not use it for third-party advertising.',
      ],
    },
    {
      heading: '4. Legal bases',
      paragraphs: [
        'Where data protection law requires a legal basis, we rely on the performance of our contract with you, our legitimate interest in keeping the service secure and improving it, compliance with legal obligations, and, where we ask for it, your consent, which you may withdraw at any time.',
      ],
    },
    {
      heading: '5. Sharing',
      paragraphs: [
        'We share information only with service providers who help us run Storewise (hosting, email delivery, payment processing, customer support tooling) under contracts that limit their use of it to our instructions, and with authorities where the law requires it. If Storewise is involved in a merger or acquisition, your information may transfer to the new owner under this policy.',
      ],
    },
    {
      heading: '6. Retention',
      paragraphs: [
        'We keep account data while your account is open. After you close it we delete or anonymise it within 90 days, except billing records, which we keep for as long as tax and accounting law requires.',
      ],
    },
    {
      heading: '7. Your rights',
      paragraphs: [
        'You can view and correct your profile in the dashboard at any time. You may also ask us for a copy of your data, its deletion, the restriction of or an objection to its processing, or its transfer to another provider. Write to privacy@storewise.example; we answer within 30 days.',
      ],
    },
    {
      heading: '8. Children',
      paragraphs: [
        'Storewise is a service for businesses. You must be at least 18 years old to create an account, and we do not knowingly collect information from anyone under 18.',
      ],
    },
    {
      heading: '9. Changes and contact',
      paragraphs: [
        'We will post any change to this policy on this page and, for significant changes, tell you by email before they take effect. Questions: privacy@storewise.example.',
      ],
    },
  ],
};
