import { Link } from 'react-router-dom';
import { useSmartSuggestions } from './data/use-smart-suggestions.ts';

/**
 * The dashboard's Smart suggestions: the same list as /suggestions (one module, deterministic per user
 * and day). Nothing is shown while there is nothing to suggest.
 */
export function SmartSuggestionsList() {
  const suggestions = useSmartSuggestions();
  if (suggestions.loading || suggestions.error || suggestions.data.length === 0) return null;
  return (
    <section className="dashboard-section" aria-labelledby="suggestions-title">
      <h2 id="suggestions-title">Smart suggestions</h2>
      <ul className="suggestions">
        {suggestions.data.map((s) => (
          <li key={s.id} className="card">
            <span>{s.text}</span>
            <Link to={s.to}>{s.action}</Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/suggestions">All suggestions</Link>
      </p>
    </section>
  );
}
