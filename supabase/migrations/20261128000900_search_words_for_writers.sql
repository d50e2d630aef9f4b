-- Every write to deals and profiles computes their generated `search_vector`, which calls
-- pacta_private.search_words with the privileges of whoever writes: the signed-in user under RLS as
-- much as the server. Without this grant every user's insert or update of a deal or a profile fails
-- with "permission denied for function search_words".
grant execute on function pacta_private.search_words(text[]) to authenticated, service_role;
