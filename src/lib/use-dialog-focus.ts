import { useEffect, type RefObject } from 'react';
import { useLatest } from './use-latest.ts';

/** What takes focus in a dialog: its links and its enabled buttons. */
const ACTIONS = 'button:not(:disabled), a[href]';

/**
 * A modal dialog's focus: when it opens, focus moves to its first action and then stays inside it
 * (Tab and Shift+Tab wrap), so keyboard users can act on it at once; Escape calls `onEscape` when one
 * is given; when it closes, focus goes back to where it was.
 */
export function useDialogFocus(box: RefObject<HTMLElement | null>, onEscape?: () => void): void {
  const escape = useLatest(onEscape);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const dialog = box.current;
    dialog?.querySelector<HTMLElement>(ACTIONS)?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (!dialog) return;
      if (event.key === 'Escape' && escape.current) {
        escape.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const actions = [...dialog.querySelectorAll<HTMLElement>(ACTIONS)];
      const first = actions[0];
      const last = actions[actions.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
    // A native listener: the dialog is not a widget, it only keeps Tab inside (and closes on Escape).
    dialog?.addEventListener('keydown', onKeyDown);
    return () => {
      dialog?.removeEventListener('keydown', onKeyDown);
      previous?.focus?.();
    };
  }, [box, escape]);
}
