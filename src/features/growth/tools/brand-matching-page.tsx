import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../../lib/session/auth-context.ts';
import { useMyProfile } from '../../../db/hooks/use-my-profile.ts';
import type { ProfileDocument } from '../../../domain/collections/index.ts';
import { formatUsd } from '../../../domain/fees.ts';
import { brandMatches } from './brand-matching-model.ts';
import { ToolError, ToolLoading, ToolPage } from './tool-states.tsx';
import { useLocalDocs } from '../data/use-local-docs.ts';

const LEAD = 'Brands whose open deals fit your niches and your amount range, best match first.';

/** /brand-matching (creators): brands ranked by the recommendation score of their fitting open deals. */
export function BrandMatchingPage() {
  const auth = useAuth();
  const isPro = !!auth.user?.isPro;
  const profile = useMyProfile();
  const deals = useLocalDocs('deals');
  const profiles = useLocalDocs('profiles');
  const matches = useMemo(() => {
    if (!profile.data || !deals.data || !profiles.data) return [];
    const brands = new Map(
      profiles.data.filter((p) => p.role !== 'creator').map((p) => [p.id, p] as [string, ProfileDocument]),
    );
    const visible = deals.data.filter((d) => isPro || auth.isAdmin || !d.pro_only);
    return brandMatches(profile.data, visible, brands, new Date()).slice(0, 20);
  }, [profile.data, deals.data, profiles.data, isPro, auth.isAdmin]);

  if (profile.error || deals.error || profiles.error)
    return (
      <ToolPage title="Brand Matching" lead={LEAD}>
        <ToolError />
      </ToolPage>
    );
  if (profile.loading || deals.loading || profiles.loading)
    return (
      <ToolPage title="Brand Matching" lead={LEAD}>
        <ToolLoading />
      </ToolPage>
    );
  const niches = profile.data?.niches ?? [];
  return (
    <ToolPage title="Brand Matching" lead={LEAD}>
      {niches.length === 0 ? (
        <p className="callout">
          Choose your niches in <Link to="/settings?section=account">Settings</Link> to see the brands that fit you.
        </p>
      ) : matches.length === 0 ? (
        <p className="muted">No brands have open deals in your niches right now.</p>
      ) : (
        <ol className="brand-matches">
          {matches.map((m) => (
            <li key={m.brandId} className="card">
              <h2>
                {m.brand?.full_name || 'A Pacta brand'}
                {m.brand?.verified ? <span className="badge badge-verified">Verified</span> : null}
              </h2>
              <p className="muted">
                Match score {Math.round(m.score)} · {m.deals.length} open deal{m.deals.length === 1 ? '' : 's'} for you
              </p>
              <ul>
                {m.deals.slice(0, 3).map((d) => (
                  <li key={d.id}>
                    <Link to={`/deals/${d.id}`}>{d.title}</Link> · {formatUsd(d.amount_cents, { compact: true })}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </ToolPage>
  );
}
