import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A ref that always holds the newest `value` (updated after each render, before effects run). For an
 * effect that must read the newest value but re-run only when something else changes (a key that
 * stands for it): the effect lists the key, and reads the value through the ref.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
