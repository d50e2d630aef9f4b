-- The search columns of 20261128000600 (deals.search_vector, profiles.search_vector) are generated
-- from pacta_private.search_words, and Postgres runs a generated column's expression with the writer's
-- rights. Only the owner could run it, so every update a signed-in user made to their profile or deal
-- failed with "permission denied" (a 403 on sync). The function only joins words; every writer may run it.
grant execute on function pacta_private.search_words(text[]) to authenticated, service_role;
