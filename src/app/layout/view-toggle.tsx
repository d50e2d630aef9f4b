import { useAuth } from '../../lib/session/auth-context.ts';

/** The admin's Brand View / Creator View toggle (default brand). */
export function ViewToggle() {
  const { isAdmin, viewAs, setViewAs } = useAuth();
  if (!isAdmin) return null;
  return (
    <div className="view-toggle" role="group" aria-label="Admin view">
      <button type="button" aria-pressed={viewAs === 'brand'} onClick={() => setViewAs('brand')}>
        Brand View
      </button>
      <button type="button" aria-pressed={viewAs === 'creator'} onClick={() => setViewAs('creator')}>
        Creator View
      </button>
    </div>
  );
}
