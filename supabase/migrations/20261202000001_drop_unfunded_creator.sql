-- Top-ups (docs/decisions/048-escrow-top-ups.md): "a funded deal in progress is refunded only with the
-- creator's consent or a dispute decided by staff" protects the money held for a creator. A creator
-- accepted after the deal was funded has no money held until their top-up is paid, so the brand may
-- still drop them then, as before any funding; never while a checkout is open (it may be paying for
-- them).
create or replace function pacta_private.applications_money_check() returns trigger language plpgsql set search_path = '' as $$
declare
  d public.deals;
begin
  if public.is_server() then return new; end if;
  if old.status = 'accepted' and new.status is distinct from 'accepted' and auth.uid() is distinct from old.creator_id then
    d := pacta_private.deal_for_rules(old.deal_id);
    if d.escrow_status in ('pending', 'disputed') and old.price_funded_at is not null then
      perform pacta_private.reject('creator_on_funded_deal',
        'This creator is on a funded deal: ask them to agree to cancel in the payment panel, or open a dispute.',
        409, 'status');
    end if;
    if d.escrow_status in ('pending', 'disputed') and pacta_private.deal_has_open_checkout(d.id) then
      perform pacta_private.reject('amount_frozen',
        'A checkout for this deal is open. Cancel it in the payment panel before changing its creators.', 409, 'status');
    end if;
  end if;
  return new;
end $$;
