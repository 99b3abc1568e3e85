import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

// Local system fonts only: the desktop app must work offline, so no web fonts are fetched.
const config = defineConfig({
  theme: {
    tokens: {
      fonts: {
        heading: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
        body: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
      },
    },
  },
});

export const system = createSystem(defaultConfig, config);
