import { formatUsd } from '../../domain/fees.ts';
import type { BriefAdvice } from '../../domain/brief-assistant.ts';

/** The wizard's side assistant (type brand, context deal_brief): figures and advice from local data. */
export function BriefAssistantPanel({ advice, niches }: { advice: BriefAdvice; niches: readonly string[] }) {
  const missing = advice.checklist.filter((i) => !i.done);
  const heading = missing.some((i) => i.required)
    ? 'Still missing'
    : missing.length
      ? 'Ready to create (worth adding)'
      : 'Your brief is complete';
  return (
    <aside
      className="card brief-assistant"
      aria-labelledby="brief-assistant-title"
      data-assistant-type="brand"
      data-assistant-context="deal_brief"
    >
      <h2 id="brief-assistant-title">Brief assistant</h2>
      <section aria-labelledby="assistant-pay">
        <h3 id="assistant-pay">What similar deals paid</h3>
        {niches.length === 0 ? (
          <p className="muted">Choose niches to see what completed deals in them paid.</p>
        ) : advice.pay ? (
          <dl className="brief-facts" data-testid="assistant-pay">
            <div>
              <dt>Median</dt>
              <dd>{formatUsd(advice.pay.medianCents)}</dd>
            </div>
            <div>
              <dt>Usual range</dt>
              <dd>
                {formatUsd(advice.pay.usualLowCents)}–{formatUsd(advice.pay.usualHighCents)}
              </dd>
            </div>
            <div>
              <dt>Lowest to highest</dt>
              <dd>
                {formatUsd(advice.pay.minCents)}–{formatUsd(advice.pay.maxCents)}
              </dd>
            </div>
            <div>
              <dt>Completed deals</dt>
              <dd>{advice.pay.count}</dd>
            </div>
          </dl>
        ) : (
          <p className="muted">No completed deals in {niches.join(', ')} yet.</p>
        )}
        {niches.length ? (
          <p data-testid="assistant-creators">
            <strong>{advice.creatorsInNiches}</strong> {advice.creatorsInNiches === 1 ? 'creator' : 'creators'} in{' '}
            {niches.join(', ')} on Pacta.
          </p>
        ) : null}
      </section>
      {advice.warnings.length ? (
        <section aria-labelledby="assistant-warnings">
          <h3 id="assistant-warnings">Worth a second look</h3>
          <ul className="assistant-warnings">
            {advice.warnings.map((w) => (
              <li key={w.code} className="callout callout-warning" data-testid={`assistant-warning-${w.code}`}>
                {w.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="assistant-checklist">
        <h3 id="assistant-checklist">{heading}</h3>
        <ul className="assistant-checklist">
          {advice.checklist.map((item) => (
            <li key={item.label} className={item.done ? 'done' : undefined}>
              <span aria-hidden="true">{item.done ? '✓' : '○'}</span> {item.label}
              {item.done ? (
                <span className="visually-hidden"> (done)</span>
              ) : item.required ? (
                <span className="muted"> (required)</span>
              ) : (
                <span className="muted"> (recommended)</span>
              )}
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
