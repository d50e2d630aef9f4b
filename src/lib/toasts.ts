import { useSyncExternalStore } from 'react';

/** Toasts show for 4 seconds, red for errors and green for success. */
export const TOAST_DURATION_MS = 4_000;

export type ToastKind = 'error' | 'success';
export type Toast = { id: number; kind: ToastKind; message: string };

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  emit(toasts.filter((t) => t.id !== id));
}

/** Shows a toast; returns its id. The same message shown twice in a row is not stacked. */
export function showToast(kind: ToastKind, message: string): number {
  const existing = toasts.find((t) => t.kind === kind && t.message === message);
  if (existing) return existing.id;
  const toast: Toast = { id: nextId++, kind, message };
  emit([...toasts, toast]);
  setTimeout(() => dismissToast(toast.id), TOAST_DURATION_MS);
  return toast.id;
}

export const toastError = (message: string): number => showToast('error', message);
export const toastSuccess = (message: string): number => showToast('success', message);

export function getToasts(): readonly Toast[] {
  return toasts;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, getToasts, getToasts);
}
