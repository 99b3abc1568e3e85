import { Box, Button, Container, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LuMail } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';

/** #about: who we are, and where Schedule Demo leads (a contact route that works offline too). */
export function AboutSection() {
  return (
    <Box as="section" id="about" aria-labelledby="about-title" tabIndex={-1} scrollMarginTop="16" bg="bg.muted" py={{ base: '14', md: '20' }} outline="none">
      <Container maxW="5xl" px={{ base: '4', sm: '6' }}>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="10" alignItems="center">
          <Stack gap="4">
            <Heading as="h2" id="about-title" fontSize={{ base: '2xl', md: '3xl' }}>
              About Storewise
            </Heading>
            <Text color="fg.muted">
              Storewise started in a family grocery that outgrew its spreadsheets. Today more than 10,000 shops —
              from corner pharmacies to fashion chains — run their stock, sales and teams on it, backed by 99.9%
              uptime and support around the clock.
            </Text>
          </Stack>
          <Stack gap="4" bg="bg" rounded="l3" p={{ base: '5', md: '8' }} borderWidth="1px">
            <Heading as="h3" size="lg">
              See Storewise with your own data
            </Heading>
            <Text color="fg.muted">
              Book a 30-minute demo with our retail team, or ask about Enterprise pricing. Sign in or create an account
              and message us from Support; we reply within 24 hours.
            </Text>
            <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
              <Button asChild>
                <RouterLink to="/auth">Contact Sales</RouterLink>
              </Button>
              <Button asChild variant="outline">
                <a href="mailto:sales@storewise.example?subject=Storewise%20demo">
                  <LuMail aria-hidden="true" /> sales@storewise.example
                </a>
              </Button>
            </Stack>
          </Stack>
        </SimpleGrid>
      </Container>
    </Box>
  );
}
