/**
 * Closes the landing's mobile menu (a native popover, docs/adr/0167) when a link inside it is chosen: the
 * popover opens and closes by itself (its button, Escape, a tap outside) but stays open over the page when an
 * in-page anchor is followed. Called by SectionLink's click handler where React runs, and by web/main.tsx's
 * document listener on the visitor's static landing, where it does not.
 */
export function closeMenuOf(target: EventTarget | null): void {
  if (!(target instanceof Element)) return;
  const menu = target.closest('a')?.closest<HTMLElement>('[popover]');
  if (menu?.matches(':popover-open')) menu.hidePopover();
}
