-- A proposed price left out stays null (meaning the deal's amount) instead of being filled in by the
-- server: a device that retries the push of its application (the answer was lost) then finds the row
-- equal to what it sent, instead of a conflict over a field it never set.

create or replace function pacta_private.applications_offer_rules() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if tg_op = 'INSERT' then
    d := pacta_private.deal_for_rules(new.deal_id);
    -- "An application carries the creator's proposed price, by default the deal's amount." Left out,
    -- it stays null (= the deal's amount) rather than being filled in, so a device retrying the same
    -- push finds the row equal to what it sent; the offer on the table carries the amount.
    if new.proposed_price_cents < 100 then
      perform pacta_private.reject('price_too_low', 'The price must be at least $1.', 422, 'proposed_price_cents');
    end if;
    new.offer_price_cents := coalesce(new.proposed_price_cents, d.amount_cents);
    new.offer_due_date := null;
    new.offer_by := 'creator';
    new.offer_id := null;
    new.agreed_price_cents := null;
    new.agreed_due_date := null;
    new.terms_version := 0;
    new.terms_accepted_by := '{}';
    new.terms_agreed_version := 0;
    new.work := '{}'::jsonb;
    new.delivered_at := null;
    new.payout_due_at := null;
    return new;
  end if;
  if not public.is_server() then
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['proposed_price_cents'], 'immutable_field');
    perform pacta_private.forbid_changes(to_jsonb(old), to_jsonb(new), array['offer_price_cents', 'offer_due_date',
      'offer_by', 'offer_id', 'agreed_price_cents', 'agreed_due_date', 'terms_version', 'terms_accepted_by',
      'terms_agreed_version', 'work', 'delivered_at', 'payout_due_at']);
  end if;
  if new.status = 'accepted' and old.status is distinct from 'accepted' and new.agreed_price_cents is null then
    -- "Accepting an offer fixes that creator's price": the brand's Accept takes the creator's offer;
    -- a counter-offer of the brand's own waits for the creator.
    if old.offer_by = 'brand' and not public.is_server() then
      perform pacta_private.reject('offer_not_accepted',
        'The creator has not accepted your counter-offer yet.', 409, 'status');
    end if;
    new.agreed_price_cents := coalesce(old.offer_price_cents, old.proposed_price_cents);
    new.agreed_due_date := old.offer_due_date;
    new.offer_price_cents := null;
    new.offer_due_date := null;
    new.offer_by := null;
    new.offer_id := null;
  end if;
  return new;
end $$;

