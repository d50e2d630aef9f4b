import { useCallback, useEffect, useState } from 'react';
import type { SyncRejection } from '../../../domain/collections/index.ts';

type Answered = { version?: number | undefined; sync_rejection?: SyncRejection | null | undefined };

/**
 * Follows one saved edit of a replicated document until the server answers: a new `version` means
 * it took the change, a `sync_rejection` that it refused it. The page says "updated" only then, so a
 * refused change never shows a success beside its refusal. `sent()` starts following (after the local
 * write); the answer is 'waiting' (not answered yet: offline, or on its way), 'saved' or 'refused'.
 */
export function useServerAnswer(doc: Answered) {
  // 'clearing': the write clears an earlier refusal, which the page may still show for a moment.
  const [state, setState] = useState<
    { phase: 'idle' | 'saved' | 'refused' } | { phase: 'clearing' | 'waiting'; version: number | undefined }
  >({ phase: 'idle' });
  const refused = !!doc.sync_rejection;
  useEffect(() => {
    if (state.phase === 'clearing' && !refused) setState({ phase: 'waiting', version: state.version });
    else if (state.phase === 'waiting' && refused) setState({ phase: 'refused' });
    else if (state.phase === 'waiting' && doc.version !== state.version) setState({ phase: 'saved' });
  }, [state, refused, doc.version]);
  const version = doc.version;
  const sent = useCallback(() => setState({ phase: refused ? 'clearing' : 'waiting', version }), [refused, version]);
  const reset = useCallback(() => setState({ phase: 'idle' }), []);
  return { answer: state.phase === 'clearing' ? 'waiting' : state.phase, sent, reset } as const;
}
