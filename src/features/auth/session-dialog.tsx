import { useId, useRef, type ReactNode } from 'react';
import { useDialogFocus } from '../../lib/use-dialog-focus.ts';
import './auth.css';

/**
 * A modal alert dialog over the page: focus moves to its first action when it opens and stays
 * inside it (Tab wraps), so keyboard users can act on it at once.
 */
export function SessionDialog({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);

  useDialogFocus(box);

  return (
    <div className="modal-backdrop">
      <div ref={box} className="card session-dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        {children}
        <div className="session-actions">{actions}</div>
      </div>
    </div>
  );
}
