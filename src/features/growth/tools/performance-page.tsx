import { useAuth } from '../../../lib/session/auth-context.ts';
import { performance } from './performance-model.ts';
import { RatingLineChart } from './growth-charts.tsx';
import { Figure, ToolError, ToolLoading, ToolPage } from './tool-states.tsx';
import { useLocalDocs } from '../data/use-local-docs.ts';

const LEAD = 'Completed deals, the rating you received over time and how fast you answer in the inbox.';

function responseText(minutes: number | null): string {
  if (minutes === null) return '–';
  if (minutes < 60) return `${minutes} min`;
  const hours = minutes / 60;
  return hours < 48 ? `${Math.round(hours * 10) / 10} h` : `${Math.round(hours / 24)} days`;
}

/** /performance: results of the user's completed deals, from the device's data. */
export function PerformancePage() {
  const userId = useAuth().user?.id ?? '';
  const deals = useLocalDocs('deals');
  const reviews = useLocalDocs('reviews');
  const messages = useLocalDocs('messages');
  const failed = deals.error ?? reviews.error ?? messages.error;
  const loading = deals.loading || reviews.loading || messages.loading;
  if (failed || loading) {
    return (
      <ToolPage title="Performance" lead={LEAD}>
        {failed ? <ToolError /> : <ToolLoading />}
      </ToolPage>
    );
  }
  const p = performance(userId, {
    deals: deals.data ?? [],
    reviews: reviews.data ?? [],
    messages: messages.data ?? [],
    now: new Date(),
  });
  return (
    <ToolPage title="Performance" lead={LEAD}>
      <dl className="growth-figures">
        <Figure label="Completed deals" value={p.completedDeals} />
        <Figure
          label="Average rating"
          value={p.averageRating === null ? '–' : `${p.averageRating} ★`}
          hint={p.averageRating === null ? 'No reviews yet.' : undefined}
        />
        <Figure
          label="Response time"
          value={responseText(p.responseMinutes)}
          hint={p.replies ? `Average over ${p.replies} replies` : 'No replies yet'}
        />
      </dl>
      <section className="card growth-section" aria-labelledby="rating-title">
        <h2 id="rating-title">Rating over time</h2>
        {p.ratingByMonth.some((m) => m.value !== null) ? (
          <RatingLineChart data={p.ratingByMonth} label="Average rating by month" />
        ) : (
          <p className="muted">No reviews yet.</p>
        )}
      </section>
    </ToolPage>
  );
}
