import { useEffect, useState } from 'react';

/**
 * The composer's half-typed message, kept on this device per user and conversation (the browser's
 * localStorage) so a reload or a trip to another page does not lose it; cleared once it is sent.
 * Not replicated: a message draft is seconds of typing on one device, not a document to sync.
 */
export function useComposerDraft(userId: string, conversationId: string) {
  const key = `pacta:message-draft:${userId}:${conversationId}`;
  const [body, setBody] = useState(() => read(key));
  // Another conversation opened in the same pane: its own draft.
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setBody(read(key));
  }
  useEffect(() => {
    try {
      if (body) localStorage.setItem(key, body);
      else localStorage.removeItem(key);
    } catch {
      // Storage full or blocked: the draft lives as long as the page.
    }
  }, [key, body]);
  return [body, setBody] as const;
}

function read(key: string): string {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}
