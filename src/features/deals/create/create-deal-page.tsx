import '../deals.css';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useDatabase } from '../../../db/hooks/use-database.ts';
import { FormField } from '../../../components/form-field.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ToggleChips } from '../../../components/toggle-chips.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useFixableError } from '../../../lib/fixable-errors.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { MAX_DEAL_NICHES, NICHES } from '../../../domain/niches.ts';
import {
  DEAL_CATEGORIES,
  EMPTY_CREATE_DRAFT,
  validateCreateDeal,
  type CreateDealDraft,
  type PayoutFormat,
} from '../data/deal-form.ts';
import { createDeal } from '../data/deal-operations.ts';
import { DeadlineField } from '../deadline-field.tsx';

/** /deals/new: brands (and admins) publish a deal; it is created locally and published by sync. */
export function CreateDealPage() {
  const auth = useAuth();
  usePageTitle('Create a deal');
  if (auth.status === 'loading') return <PageLoading />;
  if (auth.status === 'signed_out' || !auth.user) {
    return (
      <div className="page container narrow">
        <div className="card access-card">
          <h1>Create a deal</h1>
          <p>Please sign in to create a deal.</p>
          <Link to="/auth/signin" className="button button-primary">
            Sign In
          </Link>
        </div>
      </div>
    );
  }
  if (auth.role !== 'brand' && auth.role !== 'admin') {
    return (
      <div className="page container narrow">
        <div className="card access-card">
          <h1>Access Denied</h1>
          <p>Only brands can create deals.</p>
          <Link to="/deals" className="button button-primary">
            Browse Deals
          </Link>
        </div>
      </div>
    );
  }
  return <CreateDealForm brandId={auth.user.id} />;
}

const checkDraft = (draft: CreateDealDraft) => {
  const result = validateCreateDeal(draft, { advanced: true });
  return result.ok ? null : result.message;
};

function CreateDealForm({ brandId }: { brandId: string }) {
  const uid = useId();
  const db = useDatabase();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<CreateDealDraft>(EMPTY_CREATE_DRAFT);
  const [invalid, reportInvalid] = useFixableError(draft, checkDraft);
  const [failure, setFailure] = useState<string | null>(null);
  const error = invalid ?? failure;
  const [saving, setSaving] = useState(false);
  const id = (name: string) => `${uid}-${name}`;
  const set = <K extends keyof CreateDealDraft>(key: K, value: CreateDealDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const text = (
    key: 'title' | 'description' | 'amount' | 'requirements' | 'totalBudget' | 'maxCreators' | 'performanceRate',
  ) => ({
    id: id(key),
    value: draft[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const result = validateCreateDeal(draft, { advanced: true });
    if (!result.ok) {
      reportInvalid(result.message);
      setFailure(null);
      return;
    }
    reportInvalid(null);
    if (!db) {
      setFailure('Your local data is still opening. Please try again in a moment.');
      return;
    }
    setFailure(null);
    setSaving(true);
    try {
      const dealId = await createDeal(db, brandId, result.value);
      navigate(`/deals/${dealId}`);
    } catch (err) {
      console.warn('create deal failed', err);
      setFailure('Failed to create deal. Please try again.');
      setSaving(false);
    }
  }

  const showRate = draft.payoutFormat === 'performance' && draft.isCampaign;
  return (
    <div className="page container narrow">
      <PageHeader title="Create a deal" lead="Describe what you need; creators who match will see it right away." />
      <form
        className="form card deal-form"
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        aria-describedby={error ? id('error') : undefined}
      >
        <FormField id={id('title')} label="Title" required>
          {(c) => <input {...c} type="text" required maxLength={200} {...text('title')} />}
        </FormField>
        <FormField id={id('description')} label="Description" required>
          {(c) => <textarea {...c} required {...text('description')} />}
        </FormField>
        <FormField id={id('amount')} label="Amount ($)" required hint="At least $1. Creators see this amount.">
          {(c) => <input {...c} type="text" inputMode="decimal" required placeholder="500" {...text('amount')} />}
        </FormField>
        <FormField
          id={id('niches')}
          group
          label="Niches"
          required
          hint={`Choose 1 to ${MAX_DEAL_NICHES} (${draft.niches.length} selected).`}
        >
          {(c) => (
            <ToggleChips
              options={NICHES}
              value={draft.niches}
              max={MAX_DEAL_NICHES}
              labelId={id('niches-label')}
              describedBy={c['aria-describedby']}
              onChange={(n) => set('niches', n)}
            />
          )}
        </FormField>
        <FormField id={id('requirements')} label="Requirements" hint="Optional, separated by commas.">
          {(c) => <input {...c} type="text" placeholder="1 Instagram post, 2 stories" {...text('requirements')} />}
        </FormField>
        <div className="form-row">
          <DeadlineField
            id={id('deadline')}
            value={draft.deadline}
            onChange={(deadline) => set('deadline', deadline)}
          />
          <FormField id={id('category')} label="Category">
            {(c) => (
              <select {...c} value={draft.category} onChange={(e) => set('category', e.target.value)}>
                <option value="">No category</option>
                {DEAL_CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {category}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </div>
        <details className="advanced-options">
          <summary>Advanced options</summary>
          <div className="advanced-options-body">
            <FormField id={id('payout')} label="Payout format">
              {(c) => (
                <select
                  {...c}
                  value={draft.payoutFormat}
                  onChange={(e) => set('payoutFormat', e.target.value as PayoutFormat)}
                >
                  <option value="fixed">Fixed</option>
                  <option value="performance">Performance</option>
                  <option value="commission">Commission</option>
                </select>
              )}
            </FormField>
            <div className="checkbox-field">
              <input
                type="checkbox"
                id={id('campaign')}
                checked={draft.isCampaign}
                onChange={(e) => set('isCampaign', e.target.checked)}
              />
              <label htmlFor={id('campaign')}>This deal is a campaign</label>
            </div>
            <div className="form-row">
              <FormField id={id('totalBudget')} label="Total budget ($)">
                {(c) => <input {...c} type="text" inputMode="decimal" {...text('totalBudget')} />}
              </FormField>
              <FormField id={id('maxCreators')} label="Max creators">
                {(c) => <input {...c} type="number" min={1} step={1} {...text('maxCreators')} />}
              </FormField>
            </div>
            {showRate ? (
              <FormField id={id('performanceRate')} label="Performance rate (%)">
                {(c) => <input {...c} type="number" min={0} step="0.1" {...text('performanceRate')} />}
              </FormField>
            ) : null}
          </div>
        </details>
        {error ? (
          <p className="form-error" role="alert" id={id('error')}>
            {error}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? 'Creating...' : 'Create Deal'}
          </button>
          <Link to="/deals" className="button button-ghost">
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}
