import { Link } from 'react-router-dom';
import { NO_SUGGESTIONS_TEXT } from '../../../domain/smart-suggestions.ts';
import { ToolError, ToolLoading, ToolPage } from './tool-states.tsx';
import { useSmartSuggestions } from '../data/use-smart-suggestions.ts';

const PRIORITY_LABEL = { high: 'High priority', medium: 'Medium priority', low: 'Low priority' } as const;

/** /suggestions: today's smart suggestions (the same list as the dashboard's). */
export function SuggestionsPage() {
  const suggestions = useSmartSuggestions();
  return (
    <ToolPage
      title="Smart Suggestions"
      lead="Today's next steps for your profile, your deals and your pricing. They change once a day."
    >
      {suggestions.error ? (
        <ToolError />
      ) : suggestions.loading ? (
        <ToolLoading />
      ) : suggestions.data.length === 0 ? (
        <p className="muted">{NO_SUGGESTIONS_TEXT}</p>
      ) : (
        <ul className="suggestion-list">
          {suggestions.data.map((s) => (
            <li key={s.id} className={`card suggestion suggestion-${s.priority}`}>
              <span className={`badge priority-${s.priority}`}>{PRIORITY_LABEL[s.priority]}</span>
              <h2>{s.title}</h2>
              <p>{s.text}</p>
              <Link to={s.to}>{s.action}</Link>
            </li>
          ))}
        </ul>
      )}
    </ToolPage>
  );
}
