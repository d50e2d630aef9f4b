-- Search: full-text search over deals and creator profiles (docs/decisions/033-search.md).
--
-- Each table gets a stored, generated `search_vector` (Postgres keeps it equal to the row on every
-- write, whoever writes) and a GIN index on it, which `websearch_to_tsquery` matches through. The
-- words are weighted so a match in a title or a name ranks above one in a description or a bio.
-- The search itself runs as the signed-in user: row-level security decides what it can find.

-- array_to_string is only stable (it formats any element type); for text[] it never varies, and a
-- generated column needs an immutable expression.
create function pacta_private.search_words(words text[]) returns text
language sql immutable parallel safe set search_path = '' as $$
  select coalesce(array_to_string(words, ' '), '')
$$;
revoke all on function pacta_private.search_words(text[]) from public;

alter table public.deals
  add column search_vector tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, title), 'A')
    || setweight(to_tsvector('english'::regconfig, coalesce(category, '') || ' ' || pacta_private.search_words(niches)), 'B')
    || setweight(to_tsvector('english'::regconfig, pacta_private.search_words(deliverables)), 'C')
    || setweight(to_tsvector('english'::regconfig, description), 'D')
  ) stored;
create index deals_search_idx on public.deals using gin (search_vector);

alter table public.profiles
  add column search_vector tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, full_name || ' ' || coalesce(username, '')), 'A')
    || setweight(to_tsvector('english'::regconfig, pacta_private.search_words(niches) || ' ' || coalesce(region, '')), 'B')
    || setweight(to_tsvector('english'::regconfig, bio), 'D')
  ) stored;
create index profiles_search_idx on public.profiles using gin (search_vector);
