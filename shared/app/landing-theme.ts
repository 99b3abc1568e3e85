import {
  alertSlotRecipe,
  badgeRecipe,
  buttonRecipe,
  cardSlotRecipe,
  containerRecipe,
  headingRecipe,
  iconRecipe,
  linkRecipe,
  listSlotRecipe,
  spinnerRecipe,
} from '@chakra-ui/react/theme';
import { createStorewiseSystem } from './theme-base';

/**
 * The system the app starts with: just the recipes of the landing page and the shell's loading spinner, so
 * the landing paints without the ~25 recipes of the other screens (docs/adr/0044). Every other screen waits
 * for the full system of theme.ts (see full-theme.tsx); theme.test.ts checks this list against the landing.
 */
export const landingRecipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  link: linkRecipe,
  spinner: spinnerRecipe,
};

export const landingSlotRecipes = {
  alert: alertSlotRecipe,
  card: cardSlotRecipe,
  list: listSlotRecipe,
};

export const landingSystem = createStorewiseSystem(landingRecipes, landingSlotRecipes);
