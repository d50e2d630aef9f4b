import { useId } from 'react';
import { NICHES } from '../../../domain/niches.ts';
import { DEAL_CATEGORIES } from '../data/deal-form.ts';
import { amountFilterErrors, hasFilters, NO_FILTERS, type DealFilterValues } from './deal-filters.ts';

/** Category (the categories a deal can be given), minimum and maximum amount, niches, and Clear Filters. */
export function DealFilterBar({
  value,
  onChange,
}: {
  value: DealFilterValues;
  onChange(next: DealFilterValues): void;
}) {
  const uid = useId();
  const errors = amountFilterErrors(value);
  const amountField = (key: 'minAmount' | 'maxAmount') => ({
    id: `${uid}-${key}`,
    value: value[key],
    'aria-invalid': errors[key] ? (true as const) : undefined,
    'aria-describedby': errors[key] ? `${uid}-${key}-error` : undefined,
    onChange: (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value }),
  });
  const fieldError = (key: 'minAmount' | 'maxAmount') =>
    errors[key] ? (
      <p className="field-error" id={`${uid}-${key}-error`} role="alert">
        {errors[key]}
      </p>
    ) : null;
  const toggleNiche = (niche: string) =>
    onChange({
      ...value,
      niches: value.niches.includes(niche) ? value.niches.filter((n) => n !== niche) : [...value.niches, niche],
    });
  return (
    <section className="card deal-filters" aria-labelledby={`${uid}-heading`}>
      <h2 id={`${uid}-heading`} className="visually-hidden">
        Filters
      </h2>
      <div className="deal-filters-row">
        <div className="field">
          <label htmlFor={`${uid}-category`}>Category</label>
          <select
            id={`${uid}-category`}
            value={value.category}
            onChange={(e) => onChange({ ...value, category: e.target.value })}
          >
            <option value="">All categories</option>
            {DEAL_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-minAmount`}>Minimum amount ($)</label>
          <input inputMode="decimal" placeholder="0" {...amountField('minAmount')} />
          {fieldError('minAmount')}
        </div>
        <div className="field">
          <label htmlFor={`${uid}-maxAmount`}>Maximum amount ($)</label>
          <input inputMode="decimal" placeholder="Any" {...amountField('maxAmount')} />
          {fieldError('maxAmount')}
        </div>
        <button
          type="button"
          className="button button-secondary deal-filters-clear"
          onClick={() => onChange(NO_FILTERS)}
          disabled={!hasFilters(value)}
        >
          Clear Filters
        </button>
      </div>
      <details className="deal-filters-niches" open={value.niches.length > 0 || undefined}>
        <summary>Niches{value.niches.length ? ` (${value.niches.length})` : ''}</summary>
        <div className="chip-row" role="group" aria-label="Niches">
          {NICHES.map((niche) => (
            <button
              key={niche}
              type="button"
              className="chip"
              aria-pressed={value.niches.includes(niche)}
              onClick={() => toggleNiche(niche)}
            >
              {niche}
            </button>
          ))}
        </div>
      </details>
    </section>
  );
}
