import { Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { useSiteState } from '../../../lib/site-state/use-site-state';
import { SectionCard } from '../section-card';

const FAQ = [
  {
    question: 'How do I update my billing information?',
    answer: 'See your plan, payment methods and invoices on the Billing page.',
    link: { to: '/dashboard/billing', label: 'Go to Billing' },
  },
  {
    question: 'How do I change my password?',
    answer: 'Confirm your current password and choose a new one on the Security page.',
    link: { to: '/dashboard/security', label: 'Go to Security' },
  },
  {
    question: 'How do I sign out of other devices?',
    answer: 'The Security page lists your active sessions and can log out every other device.',
    link: { to: '/dashboard/security', label: 'Review active sessions' },
  },
];

/** The built-in answers, then the entries the admin keeps in Content Management (public_site_state). */
export function FaqCard() {
  const state = useSiteState();
  return (
    <SectionCard title="Frequently Asked Questions">
      {state && (
        <Text fontSize="sm" color="fg.muted" mb="4">
          We answer within {state.support.response_hours} hours. You can also write to{' '}
          <Link href={`mailto:${state.support.email}`} colorPalette="blue" color="colorPalette.fg">{state.support.email}</Link>.
        </Text>
      )}
      <Stack as="dl" gap="4">
        {FAQ.map((entry) => (
          <Stack key={entry.question} gap="1">
            <Text as="dt" fontWeight="semibold">
              {entry.question}
            </Text>
            <Text as="dd" fontSize="sm" color="fg.muted">
              {entry.answer}{' '}
              <Link asChild colorPalette="blue" color="colorPalette.fg" fontWeight="medium">
                <RouterLink to={entry.link.to}>{entry.link.label}</RouterLink>
              </Link>
            </Text>
          </Stack>
        ))}
        {state?.faq.map((entry) => (
          <Stack key={`admin-${entry.question}`} gap="1">
            <Text as="dt" fontWeight="semibold">{entry.question}</Text>
            <Text as="dd" fontSize="sm" color="fg.muted" whiteSpace="pre-line">{entry.answer}</Text>
          </Stack>
        ))}
      </Stack>
    </SectionCard>
  );
}
