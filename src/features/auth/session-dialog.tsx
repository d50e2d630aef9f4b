import { useEffect, useId, useRef, type ReactNode } from 'react';
import './auth.css';

/**
 * A modal alert dialog over the page: focus moves to its first action when it opens and stays
 * inside it (Tab wraps), so keyboard users can act on it at once.
 */
export function SessionDialog({ title, children, actions }: { title: string; children: ReactNode; actions: ReactNode }) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const dialog = box.current;
    dialog?.querySelector<HTMLElement>('button:not(:disabled)')?.focus();
    function trapTab(event: KeyboardEvent) {
      if (event.key !== 'Tab' || !dialog) return;
      const buttons = [...dialog.querySelectorAll<HTMLElement>('button:not(:disabled), a[href]')];
      const first = buttons[0];
      const last = buttons[buttons.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
    // A native listener: the dialog is not a widget, it only keeps Tab inside itself.
    dialog?.addEventListener('keydown', trapTab);
    return () => {
      dialog?.removeEventListener('keydown', trapTab);
      previous?.focus?.();
    };
  }, []);

  return (
    <div className="session-backdrop">
      <div ref={box} className="card session-dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        {children}
        <div className="session-actions">{actions}</div>
      </div>
    </div>
  );
}
