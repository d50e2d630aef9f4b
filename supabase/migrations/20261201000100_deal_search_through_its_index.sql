-- Deal search reaches its full-text index (docs/decisions/046-deal-search-through-its-index.md).
--
-- Run as the signed-in user, `search_vector @@ query` could never use deals_search_idx: the text
-- match operator is not leakproof, so under row-level security Postgres checks the policy on every
-- deal before matching it, which means reading all of them (100,000 deals: a sequential scan for
-- every search, even one that matches nothing).
--
-- pacta_private.deal_search_matches finds the ids with the server's rights, so the match goes
-- through the index, and answers only deals the caller may read: an open deal the `deals_read`
-- policy lets them read (not Pro-only, or they are Pro, its brand, an applicant to it, or staff).
-- The search reads the deals themselves as the user, under the policy as before.

-- Open deals in the orders the search reads them (newest first; highest amount first): a search for
-- a common word reads them in order and stops once it has its matches, instead of sorting them all.
create index deals_open_newest_idx on public.deals (created_at desc, id desc)
  where status = 'open' and not deleted;
create index deals_open_amount_idx on public.deals (amount_cents desc, created_at desc, id desc)
  where status = 'open' and not deleted;

-- The open deals that match `q` (null: any deal) and the filters, whose deadline has not passed, in
-- the order asked ('newest', or 'amount': highest first, then newest), at most `p_limit` of them.
-- `rows 50`: a page's worth, so the search joins the answer to the deals one by one by id instead of
-- reading every deal to hash them.
--
-- Two ways to find them, each fast where the other is slow:
-- - Common words: read the open deals in the order asked and keep the matches, up to 32 deals per
--   match wanted (a word in one deal of 32 has its matches among them). Exact: those are the first
--   matches in the order. Taken when the planner expects one open deal in 32 or more to match, and
--   never for a phrase ("vegan snack"): the planner counts the deals with both words, often many
--   times those with the phrase.
-- - Rarer words, or common ones that found too few there (the planner's guess is far off for words
--   that go together): every match through the text index, then the order.
-- Each statement is planned with its values on each call, so the planner sees the words. Volatile
-- only because it asks the planner for its guess (EXPLAIN), which a stable function may not; it
-- writes nothing.
create function pacta_private.deal_search_matches(
  q tsquery, p_category text, p_min_cents bigint, p_max_cents bigint, p_niches text[], p_order text,
  p_limit integer
) returns setof uuid rows 50
language plpgsql volatile security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  -- Deals whose brand's name (the weight-A words of its profile) matches.
  brands uuid[] := case when q is null then '{}' else array(
    select p.id from public.profiles p
     where p.role = 'brand' and p.search_vector @@ q and ts_filter(p.search_vector, '{a}') @@ q) end;
  matching text;
  ordering text;
  plan json;
  expected numeric;
  offered numeric;
  found uuid[];
begin
  if p_order not in ('newest', 'amount') then
    raise exception 'unknown order %', p_order;
  end if;
  ordering := case when p_order = 'amount' then 'amount_cents desc, created_at desc, id desc'
                   else 'created_at desc, id desc' end;
  matching := format($where$
        -- `deals_read` for an open deal.
        (not d.pro_only or $8 or d.brand_id = $7 or $9
         or d.id in (select a.deal_id from public.applications a where a.creator_id = $7))
        -- A deadline on or after today (as text, 'YYYY-MM-DD' sorts as the day) has not passed,
        -- and a malformed one never passes: only the rest need the exact check, a call per deal.
        and (d.deadline is null
             or d.deadline collate "C" >= to_char(now() at time zone 'Etc/GMT+12', 'YYYY-MM-DD')
             or not pacta_private.deadline_has_passed(d.deadline))
        and %s
        and ($2::text is null or d.category = $2)
        and ($3::bigint is null or d.amount_cents >= $3)
        and ($4::bigint is null or d.amount_cents <= $4)
        and ($5::text[] is null or d.niches && $5) $where$,
    case when q is null then 'true' else '(d.search_vector @@ $1 or d.brand_id = any ($10))' end);

  execute format($query$
    explain (format json) select 1 from public.deals d where not d.deleted and d.status = 'open' and %s $query$,
    matching)
    into plan
    using q, p_category, p_min_cents, p_max_cents, p_niches, p_limit,
          uid, public.is_pro_user(uid), public.is_admin(), brands;
  expected := (plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric;
  execute $query$ explain (format json) select 1 from public.deals d where not d.deleted and d.status = 'open' $query$
    into plan;
  offered := (plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric;

  if expected * 32 >= offered and coalesce(q::text !~ '<(-|[0-9]+)>', true) then
    execute format($query$
      select array(select d.id
                     from (select d.id, d.brand_id, d.pro_only, d.deadline, d.search_vector, d.category,
                                  d.amount_cents, d.niches
                             from public.deals d where not d.deleted and d.status = 'open'
                            order by %1$s limit 32 * $6) d
                    where %2$s
                    limit $6) $query$, ordering, matching)
      into found
      using q, p_category, p_min_cents, p_max_cents, p_niches, p_limit,
            uid, public.is_pro_user(uid), public.is_admin(), brands;
    if cardinality(found) = p_limit then
      return query select unnest(found);
      return;
    end if;
  end if;

  return query execute format($query$
    with m as materialized (
      select d.id, d.amount_cents, d.created_at from public.deals d
       where not d.deleted and d.status = 'open' and %2$s)
    select m.id from m order by %1$s limit $6 $query$, ordering, matching)
    using q, p_category, p_min_cents, p_max_cents, p_niches, p_limit,
          uid, public.is_pro_user(uid), public.is_admin(), brands;
end $$;
revoke all on function pacta_private.deal_search_matches(tsquery, text, bigint, bigint, text[], text, integer) from public;
grant execute on function pacta_private.deal_search_matches(tsquery, text, bigint, bigint, text[], text, integer)
  to authenticated;
