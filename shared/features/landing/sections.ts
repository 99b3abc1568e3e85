/** The landing page's anchors (spec 2), in page order. */
export const landingSections = [
  { id: 'features', label: 'Features' },
  { id: 'industries', label: 'Industries' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'about', label: 'About' },
] as const;
export type LandingSectionId = (typeof landingSections)[number]['id'];

const sectionIds: readonly string[] = landingSections.map((section) => section.id);

/**
 * The section a URL hash points at. Accepts "#pricing" and also "#pricing#access_token=..." (an auth
 * redirect appends its own fragment to a redirect URL that already has one).
 */
export function sectionFromHash(hash: string): LandingSectionId | null {
  const id = hash.replace(/^#/, '').split(/[#&]/)[0] ?? '';
  return sectionIds.includes(id) ? (id as LandingSectionId) : null;
}

/**
 * Smooth-scrolls to a section and moves keyboard focus there. Done in script rather than with plain
 * "#id" links because the desktop app uses a hash router, where a bare fragment would change the route.
 */
export function scrollToSection(id: LandingSectionId) {
  const target = document.getElementById(id);
  if (!target) return;
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  target.focus({ preventScroll: true });
}
