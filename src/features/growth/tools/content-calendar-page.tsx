import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useMyProfile } from '../../../db/hooks/use-my-profile.ts';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { calendarEvents, monthGrid } from './calendar-model.ts';
import { monthLabel } from './month-series.ts';
import { ToolError, ToolLoading, ToolPage } from './tool-states.tsx';
import { useLocalDocs } from '../data/use-local-docs.ts';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** /content-calendar: the creator's accepted deals or the brand's deals and campaigns, by deadline, on a month view. */
export function ContentCalendarPage() {
  const auth = useAuth();
  const role = auth.isAdmin ? auth.viewAs : auth.user?.role === 'brand' ? 'brand' : 'creator';
  const deals = useLocalDocs('deals');
  const brandName = useMyProfile().data?.full_name ?? '';
  // A brand's own deal titles often start with its name: the calendar cells show the rest.
  const short = (title: string) =>
    role === 'brand' && brandName && title.startsWith(`${brandName} `) ? title.slice(brandName.length + 1) : title;
  const today = new Date();
  const [month, setMonth] = useState({ year: today.getFullYear(), month: today.getMonth() + 1 });
  const lead = role === 'brand' ? 'Your deals and campaigns by deadline.' : 'Your accepted deals by deadline.';
  if (deals.error || deals.loading)
    return (
      <ToolPage title="Content Calendar" lead={lead}>
        {deals.error ? <ToolError /> : <ToolLoading />}
      </ToolPage>
    );

  const { dated, undated } = calendarEvents(auth.user?.id ?? '', role, deals.data ?? []);
  const key = `${month.year}-${String(month.month).padStart(2, '0')}`;
  const byDay = new Map<string, typeof dated>();
  for (const e of dated) byDay.set(e.date, [...(byDay.get(e.date) ?? []), e]);
  const move = (delta: number) =>
    setMonth((m) => {
      const d = new Date(m.year, m.month - 1 + delta, 1);
      return { year: d.getFullYear(), month: d.getMonth() + 1 };
    });
  const todayKey = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  const thisMonth = dated.filter((e) => e.date.startsWith(key));

  return (
    <ToolPage title="Content Calendar" lead={lead}>
      <div className="calendar-nav">
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => move(-1)}
          aria-label="Previous month"
        >
          ←
        </button>
        <h2 aria-live="polite">{monthLabel(key)}</h2>
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => move(1)}
          aria-label="Next month"
        >
          →
        </button>
      </div>
      <table className="calendar">
        <caption className="visually-hidden">Deadlines in {monthLabel(key)}</caption>
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th key={d} scope="col">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(month.year, month.month).map((week, i) => (
            <tr key={i}>
              {week.map((day, j) => (
                <td key={j} className={day === todayKey ? 'calendar-today' : undefined}>
                  {day ? (
                    <>
                      <span className="calendar-day">{Number(day.slice(8))}</span>
                      {(byDay.get(day) ?? []).map((e) => (
                        <Link
                          key={e.dealId}
                          className="calendar-event"
                          to={`/deals/${e.dealId}`}
                          title={e.estimated ? `${e.title} (estimated from its deadline)` : e.title}
                        >
                          {short(e.title)}
                        </Link>
                      ))}
                    </>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <section className="growth-section" aria-labelledby="month-list-title">
        <h2 id="month-list-title">Due in {monthLabel(key)}</h2>
        {thisMonth.length ? (
          <ul>
            {thisMonth.map((e) => (
              <li key={e.dealId}>
                {e.date}
                {e.estimated ? ' (estimated)' : ''} · <Link to={`/deals/${e.dealId}`}>{e.title}</Link> (
                {e.status.replace('_', ' ')})
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Nothing due this month.</p>
        )}
        {undated.length ? (
          <>
            <h3>No date set</h3>
            <ul>
              {undated.map((e) => (
                <li key={e.dealId}>
                  <Link to={`/deals/${e.dealId}`}>{e.title}</Link>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
    </ToolPage>
  );
}
