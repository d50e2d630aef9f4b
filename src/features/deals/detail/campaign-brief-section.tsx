import type { DealDocument } from '../../../domain/collections/index.ts';

type BriefFields = Pick<
  DealDocument,
  'target_audience' | 'key_messaging' | 'brand_guidelines' | 'timeline' | 'product_url'
>;

/** The parts of a campaign brief the deal keeps beyond its description: shown as written, empty ones left out. */
export function CampaignBriefSection({ deal }: { deal: BriefFields }) {
  const rows: [string, string | null][] = [
    ['Target audience', deal.target_audience],
    ['Key messaging', deal.key_messaging],
    ['Brand guidelines', deal.brand_guidelines],
    ['Timeline', deal.timeline],
  ];
  const shown = rows.filter((row): row is [string, string] => !!row[1]?.trim());
  const productUrl = deal.product_url?.trim() && /^https?:\/\//i.test(deal.product_url) ? deal.product_url : null;
  if (shown.length === 0 && !productUrl) return null;
  return (
    <section className="card detail-section" aria-labelledby="brief-heading">
      <h2 id="brief-heading">Campaign brief</h2>
      <dl className="brief-list">
        {shown.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className="prose-text">{value}</dd>
          </div>
        ))}
        {productUrl ? (
          <div>
            <dt>Product</dt>
            <dd>
              <a href={productUrl} target="_blank" rel="noopener noreferrer nofollow">
                {productUrl}
              </a>
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
