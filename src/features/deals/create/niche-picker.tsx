import { NICHES } from '../../../domain/niches.ts';
import { MAX_DEAL_NICHES } from '../../../domain/niches.ts';

/** Toggle chips for 1 to 5 niches; further niches are disabled once five are chosen. */
export function NichePicker({ value, onChange, labelId, describedBy }: { value: string[]; onChange(next: string[]): void; labelId: string; describedBy?: string }) {
  const full = value.length >= MAX_DEAL_NICHES;
  return (
    <div className="chip-row" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      {NICHES.map((niche) => {
        const on = value.includes(niche);
        return (
          <button
            key={niche}
            type="button"
            className="chip"
            aria-pressed={on}
            disabled={!on && full}
            onClick={() => onChange(on ? value.filter((n) => n !== niche) : [...value, niche])}
          >
            {niche}
          </button>
        );
      })}
    </div>
  );
}
