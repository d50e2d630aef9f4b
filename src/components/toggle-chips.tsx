/** Toggle chips choosing up to `max` of `options`; further chips are disabled once the maximum is chosen. */
export function ToggleChips({
  options,
  value,
  onChange,
  max,
  labelId,
  describedBy,
  invalid,
}: {
  options: readonly string[];
  value: readonly string[];
  onChange(next: string[]): void;
  max?: number;
  labelId: string;
  describedBy?: string | undefined;
  invalid?: boolean;
}) {
  const full = max !== undefined && value.length >= max;
  return (
    <div
      className="chip-row"
      role="group"
      aria-labelledby={labelId}
      aria-describedby={describedBy}
      data-invalid={invalid ? 'true' : undefined}
    >
      {options.map((option) => {
        const on = value.includes(option);
        return (
          <button
            key={option}
            type="button"
            className="chip"
            aria-pressed={on}
            disabled={!on && full}
            onClick={() => onChange(on ? value.filter((v) => v !== option) : [...value, option])}
          >
            {option}
          </button>
        );
      })}
    </div>
  );
}
