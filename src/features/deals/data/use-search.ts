import { useEffect, useMemo, useState } from 'react';
import { map } from 'rxjs';
import { useLiveQuery } from '../../../db/hooks/use-live-query.ts';
import type { DealDocument, ProfileDocument } from '../../../domain/collections/index.ts';
import type { DealInput } from '../../../domain/recommendation.ts';
import {
  dealSortOrder,
  mergeHits,
  queryTerms,
  SEARCH_PAGE_MAX,
  type CreatorSort,
  type DealSort,
  type SearchHit,
} from '../../../domain/search.ts';
import { parseUsdToCents } from '../../../domain/fees.ts';
import {
  searchCreators,
  searchDeals,
  type LocalSearchAnswer,
  type SearchableCreator,
  type SearchableDeal,
} from '../../../lib/recommendations-client.ts';
import { syncCreatorIndex, syncDealIndex } from '../../../lib/search-index.ts';
import { useLatest } from '../../../lib/use-latest.ts';
import type { DealSelector } from './deal-queries.ts';
import { OnlineSearchUnavailable, searchCreatorsOnline, searchDealsOnline } from './search-api.ts';
import { displayName } from './use-deal-data.ts';
import { toCreatorInput } from './use-recommendations.ts';

/**
 * Search on /deals: the device's documents are indexed in the worker (MiniSearch) and searched at
 * each keystroke; online, the server is asked too (after a short pause in typing) for what the device
 * does not hold, and both answers are shown as one list, each result marked as on the device or not.
 */

/** A pause in typing before the server is asked: one request per word, not per letter. */
const SERVER_PAUSE_MS = 300;

export type OnlineState = 'idle' | 'searching' | 'done' | 'offline' | 'failed';

export type SearchResults<T> = {
  /** Undefined until the device's first answer for this search. */
  hits: SearchHit<T>[] | undefined;
  /** The words to mark in each result: the query's and those the index matched. */
  termsOf(id: string): readonly string[];
  /** How many of the device's documents match (all of them, not only those shown). */
  deviceTotal: number;
  /** How many documents the device searched. */
  deviceCount: number;
  online: OnlineState;
  onlineMessage: string | null;
};

type Local = { key: string; answer: LocalSearchAnswer };
type Remote<T> = { key: string; state: OnlineState; docs: T[]; message: string | null };

function useMergedSearch<T extends { id: string }>(opts: {
  enabled: boolean;
  key: string;
  q: string;
  docs: ReadonlyMap<string, T> | undefined;
  /** Brings the worker's index up to `docs`; the search waits for it. */
  indexed: unknown;
  searchDevice: () => Promise<LocalSearchAnswer>;
  searchServer: (signal: AbortSignal) => Promise<T[]>;
  online: boolean;
  compare?: ((a: T, b: T) => number) | undefined;
}): SearchResults<T> {
  const { enabled, key, q, docs, indexed, online, compare } = opts;
  const [local, setLocal] = useState<Local | null>(null);
  const [remote, setRemote] = useState<Remote<T> | null>(null);
  const latest = useLatest({ searchDevice: opts.searchDevice, searchServer: opts.searchServer });

  // The device: at every change of the search or of the index.
  useEffect(() => {
    if (!enabled || !docs) return;
    let current = true;
    latest.current.searchDevice().then(
      (answer) => current && setLocal({ key, answer }),
      () => current && setLocal({ key, answer: { matches: [], total: 0 } }),
    );
    return () => {
      current = false;
    };
  }, [enabled, key, docs, indexed, latest]);

  // The server: online, after a pause in typing; a newer search cancels the older request.
  useEffect(() => {
    if (!enabled) return;
    if (!online) {
      setRemote({ key, state: 'offline', docs: [], message: null });
      return;
    }
    const abort = new AbortController();
    setRemote((r) => ({ key, state: 'searching', docs: r?.key === key ? r.docs : [], message: null }));
    const timer = setTimeout(() => {
      latest.current.searchServer(abort.signal).then(
        (found) => setRemote({ key, state: 'done', docs: found, message: null }),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          const message = error instanceof OnlineSearchUnavailable ? error.message : 'Online search failed.';
          setRemote({ key, state: 'failed', docs: [], message });
        },
      );
    }, SERVER_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [enabled, key, online, latest]);

  const answer = local?.key === key ? local.answer : undefined;
  const serverDocs = remote?.key === key ? remote.docs : undefined;
  const hits = useMemo(() => {
    if (!answer || !docs) return undefined;
    const fromDevice = answer.matches.flatMap((m) => {
      const doc = docs.get(m.id);
      return doc ? [doc] : [];
    });
    return mergeHits(fromDevice, serverDocs ?? [], compare);
  }, [answer, docs, serverDocs, compare]);
  const termsById = useMemo(() => new Map(answer?.matches.map((m) => [m.id, m.terms])), [answer]);
  const words = useMemo(() => queryTerms(q), [q]);

  return {
    hits,
    termsOf: (id) => [...words, ...(termsById.get(id) ?? [])],
    deviceTotal: answer?.total ?? 0,
    deviceCount: docs?.size ?? 0,
    online: remote?.key === key ? remote.state : online ? 'searching' : 'offline',
    onlineMessage: remote?.key === key ? remote.message : null,
  };
}

type Plain = { toJSON(): unknown };

/** Indexes `searchable` in the worker whenever it changes; answers a value that changes after each step. */
function useIndexed<T>(searchable: readonly T[] | undefined, sync: (docs: readonly T[]) => Promise<void>): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!searchable) return;
    let current = true;
    sync(searchable).then(
      () => current && setVersion((v) => v + 1),
      () => current && setVersion((v) => v + 1),
    );
    return () => {
      current = false;
    };
  }, [searchable, sync]);
  return version;
}

export type DealSearchInput = {
  q: string;
  sort: DealSort;
  category: string;
  minAmount: string;
  maxAmount: string;
  niches: readonly string[];
};

const cents = (usd: string) => (usd.trim() ? parseUsdToCents(usd) : undefined);

/** A creator's search over deals: the deals of `visible` on the device, and the server's. */
export function useDealSearch(opts: {
  enabled: boolean;
  search: DealSearchInput;
  visible: DealSelector;
  profiles: ReadonlyMap<string, ProfileDocument>;
  me: ProfileDocument | null;
  isPro: boolean;
  online: boolean;
}): SearchResults<DealDocument> {
  const { enabled, search, visible, profiles, me, isPro, online } = opts;
  const visibleKey = JSON.stringify(visible);
  const all = useLiveQuery(
    (db) =>
      db.deals
        .find({ selector: JSON.parse(visibleKey) as DealSelector })
        .$.pipe(map((docs) => docs.map((d) => (d as unknown as Plain).toJSON() as DealDocument))),
    [visibleKey],
  );
  const docs = useMemo(() => (all.data ? new Map(all.data.map((d) => [d.id, d])) : undefined), [all.data]);
  const searchable = useMemo(
    () =>
      all.data?.map((d): SearchableDeal => ({
        id: d.id,
        brand_id: d.brand_id,
        title: d.title,
        description: d.description,
        brand_name: displayName(profiles.get(d.brand_id), ''),
        niches: d.niches,
        platforms: d.platforms,
        deliverables: d.deliverables,
        category: d.category,
        amount_cents: d.amount_cents,
        pro_only: d.pro_only,
        status: d.status,
        created_at: d.created_at ?? null,
      })),
    [all.data, profiles],
  );
  const indexed = useIndexed(searchable, syncDealIndex);
  const minCents = cents(search.minAmount);
  const maxCents = cents(search.maxAmount);
  const key = JSON.stringify([search, minCents, maxCents]);
  return useMergedSearch({
    enabled,
    key,
    q: search.q,
    docs,
    indexed,
    online,
    compare: dealSortOrder(search.sort),
    searchDevice: () =>
      searchDeals({
        q: search.q,
        category: search.category || undefined,
        minCents,
        maxCents,
        niches: search.niches,
        sort: search.sort,
        limit: 500,
        creator: me ? toCreatorInput(me) : undefined,
        creatorIsPro: isPro,
        now: Date.now(),
      }),
    searchServer: (signal) =>
      searchDealsOnline(
        {
          q: search.q,
          category: search.category || undefined,
          min_cents: minCents,
          max_cents: maxCents,
          niches: [...search.niches],
          sort: search.sort,
          limit: SEARCH_PAGE_MAX,
        },
        signal,
      ),
  });
}

export type CreatorSearchInput = {
  q: string;
  sort: CreatorSort;
  niches: readonly string[];
  minFollowers: string;
  region: string;
  minRating: string;
};

const wholeNumber = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : undefined);
const rating = (s: string) => {
  const n = Number(s.trim());
  return s.trim() && Number.isFinite(n) && n >= 0 && n <= 5 ? n : undefined;
};

/** A brand's search over creators: the creator profiles on the device, and the server's. */
export function useCreatorSearch(opts: {
  enabled: boolean;
  search: CreatorSearchInput;
  creators: readonly ProfileDocument[] | undefined;
  /** For sort 'recommended': the deal the creators are scored for. */
  target: DealInput | null;
  online: boolean;
}): SearchResults<ProfileDocument> {
  const { enabled, search, creators, target, online } = opts;
  const docs = useMemo(() => (creators ? new Map(creators.map((c) => [c.id, c])) : undefined), [creators]);
  const searchable = useMemo(
    () =>
      creators?.map((p): SearchableCreator => ({
        ...toCreatorInput(p),
        name: p.full_name,
        username: p.username,
        bio: p.bio,
      })),
    [creators],
  );
  const indexed = useIndexed(searchable, syncCreatorIndex);
  const minFollowers = wholeNumber(search.minFollowers);
  const minRating = rating(search.minRating);
  const region = search.region.trim() || undefined;
  const key = JSON.stringify([search, target?.id ?? null]);
  return useMergedSearch({
    enabled,
    key,
    q: search.q,
    docs,
    indexed,
    online,
    searchDevice: () =>
      searchCreators({
        q: search.q,
        niches: search.niches,
        minFollowers,
        region,
        minRating,
        sort: search.sort,
        limit: 500,
        deal: target ?? undefined,
        now: Date.now(),
      }),
    searchServer: (signal) =>
      searchCreatorsOnline(
        {
          q: search.q,
          niches: [...search.niches],
          min_followers: minFollowers,
          region,
          min_rating: minRating,
          sort: search.sort,
          limit: SEARCH_PAGE_MAX,
        },
        signal,
      ),
  });
}
