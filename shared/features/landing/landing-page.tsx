import { Box } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useSupabaseLater } from '../../lib/platform-context';
import { linkErrorFromHash, tokensFromDoubleFragment } from './confirmation-fragment';
import { AboutSection } from './about-section';
import { FeaturesSection } from './features-section';
import { HeroSection } from './hero-section';
import { IndustriesSection } from './industries-section';
import { LandingFooter } from './landing-footer';
import { LandingNav } from './landing-nav';
import { PricingSection } from './pricing-section';
import { scrollToSection, sectionFromHash } from './sections';
import { startSessionFromLink } from './session-api';
import { HydrateApart, StaticHtml } from '../../components/prerendered-parts';

// A visitor's landing follows its in-page links natively (docs/adr/0167): smooth scrolling is the page's own
// CSS, on the document while the landing is shown, and off for those who ask for less motion.
const smoothAnchors = { '@media (prefers-reduced-motion: no-preference)': { 'html:has(&)': { scrollBehavior: 'smooth' } } };

/**
 * The public home page (spec 2). For a visitor it is a static document: links, anchors and a native popover
 * menu, sent without the app's JavaScript (docs/adr/0167); the app starts on it only in a browser with a stored
 * session (web/main.tsx), and hydrates it as below.
 */
export function LandingPage() {
  const location = useLocation();
  const navigate = useNavigate();
  // The landing paints before supabase-js has loaded (docs/adr/0044): wait for it only when a link needs it.
  const supabaseLater = useSupabaseLater();

  // A used or expired link comes back with an error instead of a session: say so, then tidy the URL.
  useEffect(() => {
    const linkError = linkErrorFromHash(location.hash);
    if (!linkError) return;
    notify.error('Error', linkError);
    navigate({ hash: '' }, { replace: true });
  }, [location.hash, navigate]);

  // A confirmation link landed here with its session in a second fragment: sign in, then tidy the URL.
  useEffect(() => {
    const tokens = tokensFromDoubleFragment(location.hash);
    if (!tokens) return;
    void supabaseLater
      .then((supabase) => startSessionFromLink(supabase, tokens))
      .then(({ error }) => {
        if (error) notify.error('Error', error);
        navigate({ hash: '#pricing' }, { replace: true });
      });
  }, [location.hash, supabaseLater, navigate]);

  // Arriving at /#pricing (after sign-up, or from the confirmation email) scrolls to that section.
  useEffect(() => {
    const section = sectionFromHash(location.hash);
    if (section) scrollToSection(section);
  }, [location.hash]);

  useEffect(() => {
    document.title = 'Storewise | Retail management for every store';
  }, []);

  return (
    // Each part hydrates apart (in slices), and the parts without behaviour not at all (docs/adr/0091).
    <Box minH="100dvh" css={smoothAnchors}>
      <HydrateApart>
        <LandingNav />
      </HydrateApart>
      <main>
        <HydrateApart>
          <HeroSection />
        </HydrateApart>
        <HydrateApart>
          <FeaturesSection />
        </HydrateApart>
        <StaticHtml>
          <IndustriesSection />
        </StaticHtml>
        <HydrateApart>
          <PricingSection />
        </HydrateApart>
        <StaticHtml>
          <AboutSection />
        </StaticHtml>
      </main>
      {/* Plain links on the prerendered page: in-page anchors jump, the others load their pages. */}
      <StaticHtml>
        <LandingFooter />
      </StaticHtml>
    </Box>
  );
}
