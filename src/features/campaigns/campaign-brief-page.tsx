import './campaigns.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../lib/session/auth-context.ts';
import { useDatabase } from '../../db/hooks/use-database.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { PageLoading } from '../../components/page-loading.tsx';
import type { PactaDatabase } from '../../db/index.ts';
import { adviseBrief } from '../../domain/brief-assistant.ts';
import { deviceName, draftFieldsOf } from '../../domain/brief-draft.ts';
import {
  BRIEF_STEPS,
  EMPTY_BRIEF,
  firstInvalidStep,
  validateBrief,
  validateStep,
  type BriefErrors,
  type BriefField,
  type CampaignBrief,
} from '../../domain/campaign-brief.ts';
import { toastError } from '../../lib/toasts.ts';
import { BriefAssistantPanel } from './brief-assistant-panel.tsx';
import { BudgetStep, ContentStep, OverviewStep, ReviewStep, WizardProgress } from './brief-steps.tsx';
import {
  briefOf,
  createCampaignFromDraft,
  deleteBriefDraft,
  newDraftId,
  saveBriefEdits,
  stepOf,
  type FieldEdit,
} from './data/brief-drafts.ts';
import { useAssistantData, useBriefDrafts } from './data/use-brief-data.ts';
import { forgetUnsavedEdits, keepUnsavedEdits, unsavedEditsOf } from './data/unsaved-edits.ts';
import { DraftList } from './draft-list.tsx';

/** Keystrokes are written to the local draft after this pause (and at once when leaving). */
const AUTOSAVE_DELAY_MS = 400;
/** "then goes to /deals/{id} after 2 seconds" */
const REDIRECT_DELAY_MS = 2_000;

/** /campaign/new: the four-step campaign brief wizard, its drafts and the brief assistant. */
export function CampaignBriefPage() {
  const auth = useAuth();
  const db = useDatabase();
  if (!auth.user) {
    return (
      <div className="page container narrow">
        <p className="form-error" role="alert">
          You must be signed in to create a campaign brief.
        </p>
      </div>
    );
  }
  if (!db) return <PageLoading label="Loading your drafts..." />;
  return <CampaignBriefWizard db={db} userId={auth.user.id} />;
}

type Phase = { kind: 'editing' } | { kind: 'saving' } | { kind: 'created'; dealId: string };

function CampaignBriefWizard({ db, userId }: { db: PactaDatabase; userId: string }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { drafts, docs, loading } = useBriefDrafts(userId);
  const assistantData = useAssistantData();
  const device = useMemo(() => deviceName(navigator.userAgent), []);

  const requestedId = params.get('draft');
  const [draftId, setDraftId] = useState<string | null>(requestedId);
  const [startedNew, setStartedNew] = useState(false);
  const [brief, setBrief] = useState<CampaignBrief>(EMPTY_BRIEF);
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<BriefErrors>({});
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const loadedId = useRef<string | null>(null);
  const pending = useRef(new Map<string, FieldEdit>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const draftIdRef = useRef(draftId);
  draftIdRef.current = draftId;

  // "Edited 3 minutes ago" stays current.
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    const id = draftIdRef.current;
    if (!id || pending.current.size === 0) return;
    const edits = [...pending.current.values()];
    pending.current.clear();
    try {
      await saveBriefEdits(db, userId, id, edits, device);
    } catch (err) {
      console.warn('saving the brief draft failed', err);
    }
  }, [db, userId, device]);

  // Edits an earlier page kept as it went away (unsaved-edits.ts) go to their drafts.
  useEffect(() => {
    for (const kept of unsavedEditsOf(userId))
      saveBriefEdits(db, userId, kept.draftId, kept.edits, kept.device).then(
        () => forgetUnsavedEdits(userId, kept.draftId),
        (err: unknown) => console.warn('saving the kept brief edits failed', err),
      );
  }, [db, userId]);

  // Leaving the page (or the tab going away) writes what is still waiting, and keeps it in localStorage
  // until that write is done: a reload does not wait for it.
  useEffect(() => {
    const onHide = () => {
      const id = draftIdRef.current;
      if (!id || pending.current.size === 0) return;
      keepUnsavedEdits({ userId, draftId: id, device, edits: [...pending.current.values()] });
      void flush().then(() => forgetUnsavedEdits(userId, id));
    };
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
      void flush();
    };
  }, [flush, userId, device]);

  const record = useCallback(
    (name: string, value: unknown) => {
      let id = draftIdRef.current;
      if (!id) {
        id = newDraftId();
        draftIdRef.current = id;
        loadedId.current = id;
        setDraftId(id);
        setParams({ draft: id }, { replace: true });
      }
      pending.current.set(name, { name, value, at: Date.now() });
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
    },
    [flush, setParams],
  );

  // Opening a draft fills the wizard; later changes from another device fill the fields not being typed in.
  const current = draftId ? docs.get(draftId) : undefined;
  useEffect(() => {
    if (!current) return;
    if (loadedId.current !== current.id) {
      loadedId.current = current.id;
      setBrief(briefOf(current));
      setStep(stepOf(current));
      setErrors({});
      return;
    }
    const stored = briefOf(current);
    const fields = draftFieldsOf(current.payload);
    setBrief((local) => {
      let next = local;
      for (const key of Object.keys(stored) as BriefField[]) {
        if (!fields[key] || pending.current.has(key)) continue;
        if (JSON.stringify(local[key]) !== JSON.stringify(stored[key])) next = { ...next, [key]: stored[key] };
      }
      return next;
    });
  }, [current]);

  // The open draft was finished or deleted elsewhere: say so and start afresh.
  useEffect(() => {
    if (loading || phase.kind !== 'editing' || !draftId || loadedId.current !== draftId || current) return;
    if (pending.current.size > 0) return;
    setNotice('That draft was finished or deleted on another device.');
    loadedId.current = null;
    draftIdRef.current = null;
    setDraftId(null);
    setBrief(EMPTY_BRIEF);
    setStep(0);
    setParams({}, { replace: true });
  }, [loading, phase.kind, draftId, current, setParams]);

  const onChange = useCallback(
    <K extends BriefField>(field: K, value: CampaignBrief[K]) => {
      setBrief((b) => ({ ...b, [field]: value }));
      setErrors((e) => {
        if (!e[field]) return e;
        const next = { ...e };
        delete next[field];
        return next;
      });
      record(field, value);
    },
    [record],
  );

  const goTo = (next: number) => {
    setStep(next);
    record('step', next);
    window.scrollTo({ top: 0 });
  };

  const onNext = () => {
    const stepErrors = validateStep(brief, step);
    setErrors(stepErrors);
    if (Object.keys(stepErrors).length > 0) return;
    goTo(step + 1);
  };

  const onCreate = async () => {
    const all = validateBrief(brief);
    if (Object.keys(all).length > 0) {
      setErrors(all);
      goTo(firstInvalidStep(brief));
      return;
    }
    setFormError(null);
    setPhase({ kind: 'saving' });
    try {
      await flush();
      const id = draftIdRef.current ?? newDraftId();
      const dealId = await createCampaignFromDraft(db, userId, id, brief);
      setPhase({ kind: 'created', dealId });
    } catch (err) {
      console.warn('creating the campaign failed', err);
      setFormError('Failed to create campaign brief. Please try again.');
      setPhase({ kind: 'editing' });
    }
  };

  useEffect(() => {
    if (phase.kind !== 'created') return;
    const t = setTimeout(() => navigate(`/deals/${phase.dealId}`), REDIRECT_DELAY_MS);
    return () => clearTimeout(t);
  }, [phase, navigate]);

  const openDraft = (id: string) => {
    void flush();
    setNotice(null);
    draftIdRef.current = id;
    setDraftId(id);
    setStartedNew(false);
    setParams({ draft: id }, { replace: true });
  };
  const startNew = () => {
    void flush();
    setNotice(null);
    loadedId.current = null;
    draftIdRef.current = null;
    setDraftId(null);
    setStartedNew(true);
    setBrief(EMPTY_BRIEF);
    setStep(0);
    setErrors({});
    setParams({}, { replace: true });
  };
  const onDelete = async (id: string) => {
    if (id === draftIdRef.current) {
      pending.current.clear();
      startNew();
    }
    try {
      await deleteBriefDraft(db, id);
    } catch (err) {
      console.warn('deleting the draft failed', err);
      toastError('The draft could not be deleted. Please try again.');
    }
  };

  const advice = useMemo(() => adviseBrief(brief, assistantData.deals, assistantData.creators), [brief, assistantData]);

  if (phase.kind === 'created') {
    return (
      <div className="page container narrow">
        <div className="card access-card brief-created" role="status">
          <h1>Campaign Created Successfully!</h1>
          <p>Redirecting you to your campaign page...</p>
        </div>
      </div>
    );
  }

  const latest = drafts[0];
  const choosing = !loading && !draftId && !startedNew && latest !== undefined;
  const draftList = (
    <DraftList drafts={drafts} currentId={draftId} now={now} onOpen={openDraft} onDelete={(id) => void onDelete(id)} />
  );

  return (
    <div className="page container campaign-brief">
      <PageHeader
        title="Create a Campaign Brief"
        lead="Four short steps. Everything you type is saved as a draft on this device and follows you to your others."
      />
      {notice ? (
        <p className="callout" role="status">
          {notice}
        </p>
      ) : null}
      {choosing ? (
        <div className="brief-layout">
          <section className="card brief-resume" aria-labelledby="brief-resume-title">
            <h2 id="brief-resume-title">Continue where you left off?</h2>
            <p>
              <strong>{latest.title || 'Untitled brief'}</strong> — step {latest.step + 1} of 4, {latest.stepName}
              {latest.device ? `, last edited on ${latest.device}` : ''}.
            </p>
            <div className="form-actions">
              <button type="button" className="button button-primary" onClick={() => openDraft(latest.id)}>
                Continue draft
              </button>
              <button type="button" className="button button-secondary" onClick={startNew}>
                Start a new brief
              </button>
            </div>
          </section>
          <div className="brief-side">{draftList}</div>
        </div>
      ) : (
        <div className="brief-layout">
          <div className="brief-main">
            <WizardProgress step={step} />
            <form
              className="form card brief-form"
              noValidate
              aria-labelledby="brief-step-title"
              onSubmit={(e) => {
                e.preventDefault();
                if (step < BRIEF_STEPS.length - 1) onNext();
                else void onCreate();
              }}
            >
              <h2 id="brief-step-title">
                <span className="muted">Step {step + 1} of 4:</span> {BRIEF_STEPS[step]}
              </h2>
              {step === 0 ? <OverviewStep brief={brief} errors={errors} onChange={onChange} /> : null}
              {step === 1 ? <ContentStep brief={brief} errors={errors} onChange={onChange} /> : null}
              {step === 2 ? <BudgetStep brief={brief} errors={errors} onChange={onChange} /> : null}
              {step === 3 ? <ReviewStep brief={brief} errors={errors} onEditStep={goTo} /> : null}
              {formError ? (
                <p className="form-error" role="alert">
                  {formError}
                </p>
              ) : null}
              <div className="form-actions wizard-actions">
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={step === 0 || phase.kind === 'saving'}
                  onClick={() => goTo(step - 1)}
                >
                  Previous
                </button>
                {step < BRIEF_STEPS.length - 1 ? (
                  <button type="submit" className="button button-primary">
                    Next
                  </button>
                ) : (
                  <button type="submit" className="button button-primary" disabled={phase.kind === 'saving'}>
                    {phase.kind === 'saving' ? 'Creating Campaign...' : 'Create Campaign'}
                  </button>
                )}
              </div>
            </form>
          </div>
          <div className="brief-side">
            <BriefAssistantPanel advice={advice} niches={brief.niches} />
            {draftList}
          </div>
        </div>
      )}
    </div>
  );
}
