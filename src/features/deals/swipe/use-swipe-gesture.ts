import { useRef, useState, type PointerEvent } from 'react';

/** How far (px) a card must be dragged to count as a swipe. */
export const SWIPE_THRESHOLD_PX = 96;

/**
 * Touch and mouse swipes through pointer events: drag right to apply, left to skip. Returns the
 * current drag offset for the card's transform and the handlers to spread on it. A drag that ends
 * short of the threshold springs back; a tap (no movement) does nothing.
 */
export function useSwipeGesture(onSwipe: (direction: 'left' | 'right') => void) {
  const start = useRef<{ x: number; id: number } | null>(null);
  const [dx, setDx] = useState(0);

  const end = (event: PointerEvent<HTMLElement>) => {
    if (!start.current || start.current.id !== event.pointerId) return;
    const offset = event.clientX - start.current.x;
    start.current = null;
    setDx(0);
    if (offset >= SWIPE_THRESHOLD_PX) onSwipe('right');
    else if (offset <= -SWIPE_THRESHOLD_PX) onSwipe('left');
  };

  return {
    dx,
    handlers: {
      onPointerDown(event: PointerEvent<HTMLElement>) {
        // Buttons and links inside the card keep their own behaviour.
        if ((event.target as HTMLElement).closest('button, a')) return;
        start.current = { x: event.clientX, id: event.pointerId };
        event.currentTarget.setPointerCapture(event.pointerId);
      },
      onPointerMove(event: PointerEvent<HTMLElement>) {
        if (start.current?.id === event.pointerId) setDx(event.clientX - start.current.x);
      },
      onPointerUp: end,
      onPointerCancel(event: PointerEvent<HTMLElement>) {
        if (start.current?.id === event.pointerId) {
          start.current = null;
          setDx(0);
        }
      },
    },
  };
}
