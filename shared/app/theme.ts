import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

// Local system fonts only: the desktop app must work offline, so no web fonts are fetched.
const config = defineConfig({
  // Blue is the brand: its solid shade (blue.600) keeps white text above the 4.5:1 contrast of WCAG AA.
  globalCss: {
    html: { colorPalette: 'blue', scrollBehavior: 'smooth', _motionReduce: { scrollBehavior: 'auto' } },
  },
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
