// Keyboard focus after the page changes under the user (WCAG 2.4.3): new content takes focus at its heading, and a
// closed dialog gives focus back to the control that opened it (or, when that control is gone, to its section).
import { useEffect, useRef, type RefObject } from 'react';

/** A ref whose element takes focus when it mounts (a heading with tabIndex={-1}). */
export function useFocusOnMount<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  return ref;
}

/** Whether focus can go back to this element: still in the page, and not disabled. */
export function canTakeFocus(el: Element | null | undefined): el is HTMLElement {
  return el instanceof HTMLElement && el.isConnected && !el.matches(':disabled') && el.getClientRects().length > 0;
}

/** The main content's heading (marked data-main-heading), the place focus goes when nothing better exists. */
export function mainHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main [data-main-heading]');
}
