import {
  Box,
  Container,
  Flex,
  Heading,
  Link,
  List,
  Mark,
  Stack,
  Text,
} from "@chakra-ui/react";
import { Fragment, useEffect } from "react";
import { Link as RouterLink } from "react-router-dom";
import { StaticHtml } from "../../components/prerendered-parts";
import { BrandLogo } from "../../components/brand-logo";
import { cookiePolicy } from "./documents/cookie-policy";
import { dataSecurityPolicy } from "./documents/data-security-policy";
import { gdprCompliance } from "./documents/gdpr-compliance";
import { privacyPolicy } from "./documents/privacy-policy";
import { termsOfService } from "./documents/terms-of-service";
import {
  legalSlugs,
  legalTitles,
  type LegalDocument,
  type LegalSlug,
} from "./legal-document";

const documents: Record<LegalSlug, LegalDocument> = {
  "privacy-policy": privacyPolicy,
  "terms-of-service": termsOfService,
  "cookie-policy": cookiePolicy,
  "gdpr-compliance": gdprCompliance,
  "data-security-policy": dataSecurityPolicy,
};

const longDate = new Intl.DateTimeFormat("en-US", {
  dateStyle: "long",
  timeZone: "UTC",
});

/** Renders "[...]" placeholders highlighted, so an unfinished clause cannot pass for final text. */
function WithPlaceholders({ text }: { text: string }) {
  return text.split(/(\[[^\]]+\])/).map((part, index) =>
    part.startsWith("[") ? (
      <Mark
        key={index}
        bg="yellow.subtle"
        color="fg"
        px="1"
        whiteSpace="normal"
        data-placeholder
      >
        {part}
      </Mark>
    ) : (
      <Fragment key={index}>{part}</Fragment>
    ),
  );
}

/** One of the five public policies (spec 2), with links to the others. */
export function LegalPage({ slug }: { slug: LegalSlug }) {
  const document = documents[slug];
  useEffect(() => {
    window.document.title = `${document.title} | Storewise`;
  }, [document.title]);

  return (
    // Nothing here has behaviour (docs/adr/0091); keyed, so another document rendered in its place renders.
    <StaticHtml key={slug}>
      <Box minH="100dvh" bg="bg">
        <Box as="header" borderBottomWidth="1px">
          <Container maxW="4xl" py="4">
            <Link asChild aria-label="Storewise home" rounded="md">
              <RouterLink to="/">
                <BrandLogo />
              </RouterLink>
            </Link>
          </Container>
        </Box>
        <Container as="main" maxW="4xl" py={{ base: "8", md: "12" }}>
          <Stack gap="6" maxW="prose">
            <Stack gap="2">
              <Heading as="h1" size="3xl">
                {document.title}
              </Heading>
              <Text color="fg.muted">
                Last updated:{" "}
                <time dateTime={document.updated} data-legal-date="">
                  {longDate.format(new Date(document.updated))}
                </time>
              </Text>
            </Stack>
            {/* The built-in text is version 1; a later published version (or ?version=N) replaces this part after the
                first paint (web/live.ts, docs/adr/0261). */}
            <Stack
              gap="6"
              data-legal-body=""
              data-legal-slug={slug}
              data-legal-version="1"
            >
              <Text fontSize="lg">{document.summary}</Text>
              {document.sections.map((section) => (
                <Stack as="section" key={section.heading} gap="3">
                  <Heading as="h2" size="lg">
                    {section.heading}
                  </Heading>
                  {section.paragraphs.map((paragraph) => (
                    <Text key={paragraph} lineHeight="tall">
                      <WithPlaceholders text={paragraph} />
                    </Text>
                  ))}
                  {section.list && (
                    <List.Root ps="5" gap="2" lineHeight="tall">
                      {section.list.map((item) => (
                        <List.Item key={item}>{item}</List.Item>
                      ))}
                    </List.Root>
                  )}
                </Stack>
              ))}
            </Stack>
          </Stack>
        </Container>
        <Box as="footer" borderTopWidth="1px" bg="bg.muted">
          <Container maxW="4xl" py="6">
            <Flex as="nav" aria-label="Legal" wrap="wrap" gap="4" fontSize="sm">
              {legalSlugs
                .filter((other) => other !== slug)
                .map((other) => (
                  <Link asChild key={other} color="blue.fg">
                    <RouterLink to={`/${other}`}>
                      {legalTitles[other]}
                    </RouterLink>
                  </Link>
                ))}
              <Text color="fg.muted">
                © {new Date().getFullYear()} Storewise
              </Text>
            </Flex>
          </Container>
        </Box>
      </Box>
    </StaticHtml>
  );
}
