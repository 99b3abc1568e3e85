import type { LegalDocument } from '../legal-document';

export const cookiePolicy: LegalDocument = {
  title: 'Cookie Policy',
  updated: '2025-09-13',
  summary:
    'This policy explains the cookies and similar browser storage Storewise uses, how long they last, and how you can control them.',
  sections: [
    {
      heading: '1. What cookies are',
      paragraphs: [
        'Cookies are small text files a website stores in your browser. Similar technologies, such as local storage, keep information on your device in the same way. We refer to all of them as cookies here.',
      ],
    },
    {
      heading: '2. Cookies we use',
      paragraphs: ['Storewise uses as few cookies as possible:'],
      list: [
        'Strictly necessary: keep you signed in and protect your session (stored in your browser local storage until you sign out), and remember your interface preferences, such as whether the dashboard sidebar is open (7 days).',
        'Preferences: remember choices such as the plan you picked before creating an account, until you start that plan or clear your browser data.',
        'Analytics: if enabled, measure which pages are used so that we can improve them, using aggregated data only.',
      ],
    },
    {
      heading: '3. How long cookies last',
      paragraphs: [
        'Session cookies are deleted when you close your browser. Persistent cookies last from 1 day to 2 years, depending on their purpose, unless you delete them earlier.',
      ],
    },
    {
      heading: '4. Third-party cookies',
      paragraphs: [
        'When you choose to sign in with Google, Google may set its own cookies under its own policy. We do not allow advertising networks to set cookies on Storewise.',
      ],
    },
    {
      heading: '5. Your choices',
      paragraphs: [
        'You can block or delete cookies in your browser settings. Blocking strictly necessary cookies will stop you from signing in. Questions: privacy@storewise.example.',
      ],
    },
  ],
};
