import type { LegalDocument } from '../legal-document';

export const termsOfService: LegalDocument = {
  title: 'Terms of Service',
  updated: '2025-09-13',
  summary:
    'These terms govern your use of Storewise, the retail management platform and the online marketplace for lifestyle, grocery and urban-living goods that runs on it. By creating an account you agree to them.',
  sections: [
    {
      heading: '1. Eligibility',
      paragraphs: [
        'You must be at least 18 years old and able to enter into a binding contract to use Storewise. If you accept these terms on behalf of a business, you confirm that you have the authority to bind it.',
      ],
    },
    {
      heading: '2. Your account',
      paragraphs: [
        'Keep your sign-in details confidential and tell us at once if you suspect unauthorised access. You are responsible for the activity of the staff members you invite and for keeping the information in your account accurate.',
      ],
    },
    {
      heading: '3. Plans, trials and payment',
      paragraphs: [
        'Paid plans are billed annually in advance at the price shown on our pricing page. Every annual plan starts with a 7-day free trial; if you do not cancel before the trial ends, the plan starts and the first payment is taken. Plans renew automatically unless you turn off auto-renew in your dashboard before the renewal date. Fees are non-refundable except where the law says otherwise.',
      ],
    },
    {
      heading: '4. Acceptable use',
      paragraphs: ['You agree not to:'],
      list: [
        'sell goods that are illegal, counterfeit or unsafe, or that you have no right to sell;',
        'attempt to access accounts or data that are not yours, or probe, scan or test the security of the service without our written permission;',
        'upload malware or interfere with the operation of the service;',
        'resell the service or use it to build a competing product.',
      ],
    },
    {
      heading: '5. Your data',
      paragraphs: [
        'You own the data you put into Storewise. You give us the limited permission we need to host, process and display it to provide the service. Our Privacy Policy and Data Security Policy explain how we protect it.',
      ],
    },
    {
      heading: '6. Availability',
      paragraphs: [
        'We aim for 99.9% monthly uptime and announce planned maintenance in advance. The service is provided "as is"; we do not promise that it will be free of errors or interruptions.',
      ],
    },
    {
      heading: '7. Limitation of liability',
      paragraphs: [
        'To the extent the law allows, Storewise is not liable for indirect or consequential losses, such as lost profits or lost data, and our total liability for any claim is limited to the amount you paid us in the past 6 months before the event giving rise to the claim.',
      ],
    },
    {
      heading: '8. Suspension and termination',
      paragraphs: [
        'You may close your account at any time. We may suspend or close an account that breaks these terms, after notice where that is reasonable. On closure you may export your data for 30 days, after which we delete it as described in our Privacy Policy.',
      ],
    },
    {
      heading: '9. Governing law',
      paragraphs: [
        'These terms are governed by the laws of [JURISDICTION: to be completed by Storewise legal counsel], and the courts of [JURISDICTION] have exclusive jurisdiction over any dispute, without prejudice to the mandatory consumer protection rules of the country where you live.',
      ],
    },
    {
      heading: '10. Changes and contact',
      paragraphs: [
        'We may update these terms and will give you at least 30 days notice of material changes by email. Questions: legal@storewise.example.',
      ],
    },
  ],
};
