import { Link } from 'react-router-dom';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useMyProfile } from '../../../db/hooks/use-my-profile.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { brandAnalytics, creatorAnalytics, type NicheComparison } from './analytics-model.ts';
import { CountBarChart, MoneyBarChart } from './growth-charts.tsx';
import { Figure, ToolError, ToolLoading, ToolPage } from './tool-states.tsx';
import { useLocalDocs } from '../data/use-local-docs.ts';

/** 'Northwind Outfitters Road Test' → 'Road Test' on a chart of Northwind Outfitters' own deals. */
const withoutBrandName = (title: string, brand: string) =>
  brand && title.startsWith(`${brand} `) && title.length > brand.length + 1 ? title.slice(brand.length + 1) : title;

const trendText = (pct: number | null) =>
  pct === null ? 'No earlier month to compare' : `${pct > 0 ? '+' : ''}${pct}% on last month`;

/** /analytics: a creator's or a brand's figures from the device's data; Pro sees trends and niche comparisons. */
export function AnalyticsPage() {
  const auth = useAuth();
  const view = auth.isAdmin ? auth.viewAs : auth.user?.role === 'brand' ? 'brand' : 'creator';
  const isPro = !!auth.user?.isPro;
  const profile = useMyProfile();
  const deals = useLocalDocs('deals');
  const applications = useLocalDocs('applications');
  const lead =
    view === 'brand'
      ? 'Your deals, their applicants, what you spent and how fast creators respond.'
      : 'Your applications, how many were accepted and what you earned.';
  if (deals.error || applications.error || profile.error) {
    return (
      <ToolPage title="Analytics" lead={lead}>
        <ToolError />
      </ToolPage>
    );
  }
  if (deals.loading || applications.loading || profile.loading) {
    return (
      <ToolPage title="Analytics" lead={lead}>
        <ToolLoading />
      </ToolPage>
    );
  }
  const userId = auth.user?.id ?? '';
  const niches = profile.data?.niches ?? [];
  const now = new Date();

  if (view === 'brand') {
    const own = new Set((deals.data ?? []).filter((d) => d.brand_id === userId).map((d) => d.id));
    const brandName = profile.data?.full_name ?? '';
    const a = brandAnalytics(userId, {
      deals: deals.data ?? [],
      applications: (applications.data ?? []).filter((x) => own.has(x.deal_id)),
      niches,
      now,
    });
    return (
      <ToolPage title="Analytics" lead={lead}>
        <dl className="growth-figures">
          <Figure label="Deals" value={a.deals} />
          <Figure
            label="Total spend"
            value={formatUsd(a.totalSpendCents, { compact: true })}
            hint="Completed deals, service fee included"
          />
          <Figure
            label="Time to first applicant"
            value={a.hoursToFirstApplicant === null ? '–' : `${a.hoursToFirstApplicant} h`}
            hint="Average over your deals"
          />
        </dl>
        <section className="card growth-section" aria-labelledby="applicants-title">
          <h2 id="applicants-title">Applicants per deal</h2>
          {a.applicantsPerDeal.length ? (
            <CountBarChart
              data={a.applicantsPerDeal.map((d) => ({ label: withoutBrandName(d.title, brandName), value: d.value }))}
              label="Applicants per deal"
            />
          ) : (
            <p className="muted">No deals yet.</p>
          )}
        </section>
        <section className="card growth-section" aria-labelledby="spend-title">
          <h2 id="spend-title">Spend by month</h2>
          <MoneyBarChart data={a.spendByMonth} label="Spend by month" />
        </section>
        <ProInsights
          isPro={isPro}
          trend={trendText(a.dealsTrend).replace('on last month', 'deals on last month')}
          niche={a.niche}
          mineLabel="Your average deal"
        />
      </ToolPage>
    );
  }

  const a = creatorAnalytics(userId, {
    applications: applications.data ?? [],
    deals: deals.data ?? [],
    niches,
    isPro,
    now,
  });
  return (
    <ToolPage title="Analytics" lead={lead}>
      <dl className="growth-figures">
        <Figure label="Applications" value={a.applications} />
        <Figure
          label="Acceptance rate"
          value={a.acceptanceRate === null ? '–' : `${Math.round(a.acceptanceRate * 100)}%`}
          hint={a.decided ? `${a.accepted} accepted of ${a.decided} answered by brands` : 'No answers from brands yet'}
        />
        <Figure
          label="Earnings"
          value={formatUsd(a.totalEarningsCents, { compact: true })}
          hint="Completed deals, after commission"
        />
      </dl>
      <section className="card growth-section" aria-labelledby="earnings-title">
        <h2 id="earnings-title">Earnings by month</h2>
        <MoneyBarChart data={a.earningsByMonth} label="Earnings by month" />
      </section>
      <ProInsights
        isPro={isPro}
        trend={trendText(a.earningsTrend)}
        niche={a.niche}
        mineLabel="Your average completed deal"
      />
    </ToolPage>
  );
}

function ProInsights({
  isPro,
  trend,
  niche,
  mineLabel,
}: {
  isPro: boolean;
  trend: string;
  niche: NicheComparison;
  mineLabel: string;
}) {
  if (!isPro) {
    return (
      <section className="card growth-section growth-pro-teaser" aria-labelledby="pro-insights-title">
        <h2 id="pro-insights-title">Advanced analytics with Pro</h2>
        <p>Pro adds month-on-month trends and how your deals compare with the average deal in your niches.</p>
        <Link className="button button-primary" to="/pro">
          Upgrade to Pro
        </Link>
      </section>
    );
  }
  return (
    <section className="card growth-section" aria-labelledby="pro-insights-title">
      <h2 id="pro-insights-title">
        Advanced analytics <span className="badge badge-pro">Pro</span>
      </h2>
      <dl className="growth-figures">
        <Figure label="Trend" value={trend} />
        <Figure
          label={mineLabel}
          value={niche.mineCents === null ? '–' : formatUsd(niche.mineCents, { compact: true })}
        />
        <Figure
          label="Average open deal in your niches"
          value={niche.nicheCents === null ? '–' : formatUsd(niche.nicheCents, { compact: true })}
        />
      </dl>
    </section>
  );
}
