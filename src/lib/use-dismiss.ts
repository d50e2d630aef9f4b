import { useEffect, type RefObject } from 'react';
import { useLatest } from './use-latest.ts';

/** While `open`, Escape or a click outside `root` calls `close` (a dropdown, a status panel). */
export function useDismiss(open: boolean, root: RefObject<HTMLElement | null>, close: () => void): void {
  const onClose = useLatest(close);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose.current();
    const onClick = (event: MouseEvent) => !root.current?.contains(event.target as Node) && onClose.current();
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [open, root, onClose]);
}
