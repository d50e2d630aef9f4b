import { useAuth } from '../../lib/session/auth-context.ts';

/**
 * The admin's Brand View / Creator View toggle (default brand). `compact` (the navigation bar, where
 * an admin's row is the fullest) shows "Brand" and "Creator"; the buttons' names stay "Brand View" and
 * "Creator View".
 */
export function ViewToggle({ compact = false }: { compact?: boolean }) {
  const { isAdmin, viewAs, setViewAs } = useAuth();
  if (!isAdmin) return null;
  const view = compact ? <span className="visually-hidden"> View</span> : ' View';
  return (
    <div className="view-toggle" role="group" aria-label="Admin view">
      <button type="button" aria-pressed={viewAs === 'brand'} onClick={() => setViewAs('brand')}>
        Brand{view}
      </button>
      <button type="button" aria-pressed={viewAs === 'creator'} onClick={() => setViewAs('creator')}>
        Creator{view}
      </button>
    </div>
  );
}
