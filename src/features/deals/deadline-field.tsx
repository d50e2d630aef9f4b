import { localDay } from '../../domain/deal-deadline.ts';
import { isDeadlineDate } from './data/deadline.ts';

/**
 * The one Deadline field of the create and edit forms: a date picker that starts at today (a past
 * day is refused on save). A deal whose deadline was written as free text shows that text as it is
 * until a date replaces it (or it is cleared).
 */
export function DeadlineField({
  id,
  value,
  disabled,
  onChange,
}: {
  id: string;
  value: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  const freeText = value.trim() !== '' && !isDeadlineDate(value);
  return (
    <div className="field">
      <label htmlFor={id}>Deadline</label>
      <input
        type="date"
        id={id}
        value={freeText ? '' : value}
        min={localDay()}
        disabled={disabled}
        aria-describedby={freeText ? `${id}-current` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {freeText ? (
        <p className="field-hint muted" id={`${id}-current`}>
          Currently “{value}”.{' '}
          {disabled ? null : (
            <>
              Pick a date to replace it or{' '}
              <button type="button" className="link-button" onClick={() => onChange('')}>
                clear it
              </button>
              .
            </>
          )}
        </p>
      ) : null}
    </div>
  );
}
