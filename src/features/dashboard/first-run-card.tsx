import { Link } from 'react-router-dom';
import type { FirstRunStep } from './first-run.ts';

/** "Get started": the first run's steps, each a link until done; gone once every step is done. */
export function FirstRunCard({ steps }: { steps: FirstRunStep[] }) {
  const done = steps.filter((s) => s.done).length;
  if (done === steps.length) return null;
  return (
    <section className="card first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title">Get started</h2>
      <p className="muted">
        {done} of {steps.length} done
      </p>
      <ol className="first-run-steps">
        {steps.map((s) => (
          <li key={s.key} className={s.done ? 'first-run-done' : undefined}>
            <span className="first-run-mark" aria-hidden="true">
              {s.done ? '✓' : ''}
            </span>
            {s.done ? (
              <span>
                {s.label}
                <span className="visually-hidden"> (done)</span>
              </span>
            ) : (
              <Link to={s.to}>{s.label}</Link>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
