import { useId } from 'react';
import { FormField } from '../../components/form-field.tsx';
import { ToggleChips } from '../../components/toggle-chips.tsx';
import {
  BRIEF_STEPS,
  BRIEF_TIMELINES,
  DELIVERABLE_TYPES,
  MAX_BRIEF_NICHES,
  type BriefErrors,
  type BriefField,
  type CampaignBrief,
} from '../../domain/campaign-brief.ts';
import { NICHES } from '../../domain/niches.ts';

export type BriefStepProps = {
  brief: CampaignBrief;
  errors: BriefErrors;
  onChange<K extends BriefField>(field: K, value: CampaignBrief[K]): void;
};

export function OverviewStep({ brief, errors, onChange }: BriefStepProps) {
  const uid = useId();
  const id = (f: string) => `${uid}-${f}`;
  return (
    <>
      <FormField id={id('title')} label="Campaign title" required error={errors.title}>
        {(c) => (
          <input
            {...c}
            type="text"
            maxLength={200}
            value={brief.title}
            placeholder="Summer trail shoe launch"
            onChange={(e) => onChange('title', e.target.value)}
          />
        )}
      </FormField>
      <FormField
        id={id('niches')}
        group
        label="Niches"
        required
        hint={`Choose 1 to ${MAX_BRIEF_NICHES} (${brief.niches.length} selected).`}
        error={errors.niches}
      >
        {(c) => (
          <ToggleChips
            options={NICHES}
            value={brief.niches}
            max={MAX_BRIEF_NICHES}
            labelId={id('niches-label')}
            describedBy={c['aria-describedby']}
            invalid={!!errors.niches}
            onChange={(next) => onChange('niches', next)}
          />
        )}
      </FormField>
      <FormField
        id={id('goals')}
        label="Campaign goals"
        required
        hint="What should this campaign achieve? Creators read this first."
        error={errors.goals}
      >
        {(c) => <textarea {...c} value={brief.goals} onChange={(e) => onChange('goals', e.target.value)} />}
      </FormField>
      <FormField id={id('product_url')} label="Product URL" showOptional error={errors.product_url}>
        {(c) => (
          <input
            {...c}
            type="url"
            inputMode="url"
            value={brief.product_url}
            placeholder="https://example.com/product"
            onChange={(e) => onChange('product_url', e.target.value)}
          />
        )}
      </FormField>
      <FormField id={id('target_audience')} label="Target audience" showOptional>
        {(c) => (
          <input
            {...c}
            type="text"
            value={brief.target_audience}
            placeholder="Trail runners aged 25–40"
            onChange={(e) => onChange('target_audience', e.target.value)}
          />
        )}
      </FormField>
    </>
  );
}

export function ContentStep({ brief, errors, onChange }: BriefStepProps) {
  const uid = useId();
  const id = (f: string) => `${uid}-${f}`;
  return (
    <>
      <FormField
        id={id('deliverables')}
        group
        label="Deliverables"
        required
        hint="What each creator delivers. Choose one or more."
        error={errors.deliverables}
      >
        {(c) => (
          <ToggleChips
            options={DELIVERABLE_TYPES}
            value={brief.deliverables}
            labelId={id('deliverables-label')}
            describedBy={c['aria-describedby']}
            invalid={!!errors.deliverables}
            onChange={(next) => onChange('deliverables', next)}
          />
        )}
      </FormField>
      <FormField id={id('key_messaging')} label="Key messaging" showOptional>
        {(c) => (
          <textarea {...c} value={brief.key_messaging} onChange={(e) => onChange('key_messaging', e.target.value)} />
        )}
      </FormField>
      <FormField id={id('brand_guidelines')} label="Brand guidelines" showOptional>
        {(c) => (
          <textarea
            {...c}
            value={brief.brand_guidelines}
            onChange={(e) => onChange('brand_guidelines', e.target.value)}
          />
        )}
      </FormField>
    </>
  );
}

export function BudgetStep({ brief, errors, onChange }: BriefStepProps) {
  const uid = useId();
  const id = (f: string) => `${uid}-${f}`;
  return (
    <>
      <FormField id={id('budget')} label="Budget per creator ($)" required hint="At least $50." error={errors.budget}>
        {(c) => (
          <input
            {...c}
            type="text"
            inputMode="decimal"
            value={brief.budget}
            placeholder="250"
            onChange={(e) => onChange('budget', e.target.value)}
          />
        )}
      </FormField>
      <FormField id={id('timeline')} label="Timeline" required error={errors.timeline}>
        {(c) => (
          <select {...c} value={brief.timeline} onChange={(e) => onChange('timeline', e.target.value)}>
            <option value="">Choose a timeline</option>
            {BRIEF_TIMELINES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </>
  );
}

const orDash = (text: string) => (text.trim() ? text.trim() : '—');

/** Step 4: everything at a glance, each group with a link back to its step. */
export function ReviewStep({
  brief,
  errors,
  onEditStep,
}: {
  brief: CampaignBrief;
  errors: BriefErrors;
  onEditStep(step: number): void;
}) {
  const rows: [number, string, string, BriefField][] = [
    [0, 'Campaign title', orDash(brief.title), 'title'],
    [0, 'Niches', brief.niches.length ? brief.niches.join(', ') : '—', 'niches'],
    [0, 'Campaign goals', orDash(brief.goals), 'goals'],
    [0, 'Product URL', orDash(brief.product_url), 'product_url'],
    [0, 'Target audience', orDash(brief.target_audience), 'target_audience'],
    [1, 'Deliverables', brief.deliverables.length ? brief.deliverables.join(', ') : '—', 'deliverables'],
    [1, 'Key messaging', orDash(brief.key_messaging), 'key_messaging'],
    [1, 'Brand guidelines', orDash(brief.brand_guidelines), 'brand_guidelines'],
    [2, 'Budget per creator', brief.budget.trim() ? `$${brief.budget.trim().replace(/^\$/, '')}` : '—', 'budget'],
    [2, 'Timeline', orDash(brief.timeline), 'timeline'],
  ];
  return (
    <div className="brief-review">
      {[0, 1, 2].map((step) => (
        <section key={step} className="brief-review-group" aria-labelledby={`brief-review-${step}`}>
          <div className="brief-review-head">
            <h3 id={`brief-review-${step}`}>{BRIEF_STEPS[step]}</h3>
            <button
              type="button"
              className="button button-ghost button-small"
              onClick={() => onEditStep(step)}
              aria-label={`Edit ${BRIEF_STEPS[step]}`}
            >
              Edit
            </button>
          </div>
          <dl className="brief-review-list">
            {rows
              .filter((r) => r[0] === step)
              .map(([, label, value, field]) => (
                <div key={field}>
                  <dt>{label}</dt>
                  <dd className="prose-text">
                    {value}
                    {errors[field] ? <span className="field-error"> {errors[field]}</span> : null}
                  </dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

/** The progress indicator: four steps, the current one marked for assistive technology too. */
export function WizardProgress({ step }: { step: number }) {
  return (
    <ol className="wizard-progress" aria-label="Progress">
      {BRIEF_STEPS.map((name, i) => (
        <li
          key={name}
          className={i < step ? 'done' : i === step ? 'current' : undefined}
          aria-current={i === step ? 'step' : undefined}
        >
          <span className="wizard-progress-number" aria-hidden="true">
            {i + 1}
          </span>
          <span className="wizard-progress-name">{name}</span>
        </li>
      ))}
    </ol>
  );
}
