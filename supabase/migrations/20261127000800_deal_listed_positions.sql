-- Which deals a catalog pull may answer as removals (docs/decisions/018-hardening-input-sessions-and-pushes.md).
--
-- An incremental deals pull reads the changed rows past RLS and answers those the user may not read as
-- `{ id, _deleted: true }`, so a device that held a deal which left its scope drops it. A device can only
-- have held a deal its scope was shown: one that was listed (open or completed; for users without Pro,
-- not Pro-only) at a position the device's checkpoint has passed, or one of its own (brand, applicant:
-- those it still sees). These two columns record, per audience, the smallest change id of every version
-- of the deal since it was first listed for that audience; null while it never was. A pull sends a removal
-- only for a deal whose column is at or before its checkpoint, so it never names a deal the user could
-- not have held (a Pro-only deal to a free account, a draft, one cancelled before it was ever listed).
--
-- Why every version since the first listing and not only the listed ones: the feed serves a deal at its
-- current version's change id, and transaction ids do not follow commit order, so a later version (say,
-- the deal taken) can carry a smaller change id than the version that listed it. The smallest change id
-- of all those versions is at or before any position at which a device could have received the deal.
alter table public.deals
  add column listed_xid xid8,
  add column listed_pro_xid xid8;

-- Deals that exist already count as listed since the beginning: any device may hold them.
update public.deals set listed_xid = '0'::xid8, listed_pro_xid = '0'::xid8;

create or replace function sync.stamp_deal_listed() returns trigger
language plpgsql set search_path = '' as $$
declare
  now_xid xid8 := pg_current_xact_id();
  listed boolean := new.status in ('open', 'completed');
begin
  -- Server-owned whoever writes: computed from the previous version, never taken from the write.
  if tg_op = 'INSERT' then
    new.listed_xid := case when listed and not new.pro_only then now_xid end;
    new.listed_pro_xid := case when listed then now_xid end;
  else
    new.listed_xid := case when (listed and not new.pro_only) or old.listed_xid is not null
                           then least(old.listed_xid, now_xid) end;
    new.listed_pro_xid := case when listed or old.listed_pro_xid is not null
                               then least(old.listed_pro_xid, now_xid) end;
  end if;
  return new;
end $$;

revoke execute on function sync.stamp_deal_listed() from public;

-- Named to run after every other before-trigger of deals: the rules compare whole rows and must see
-- these columns as the previous version left them.
create trigger zz_sync_listed before insert or update on public.deals
  for each row execute function sync.stamp_deal_listed();
