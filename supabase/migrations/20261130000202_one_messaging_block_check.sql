-- One block check for the two tables that carry messaging between two people (conversations and
-- messages): a generic trigger function given the row's two user columns as trigger arguments,
-- instead of a near-copy per table. The rule is unchanged: a conversation or a message between two
-- people where one blocked the other is refused, the same words either way round (the sender is not
-- told who blocked whom), and so is one where either person's account was deleted (a message checked
-- only its recipient's; its sender's could not sign in to write one anyway). The refusal names the
-- second column (user2_id, recipient_id), as before.
--
-- Applications keep their own check: the brand is not a column of the row but the deal's, the rule
-- is one way ("Blocked people cannot apply to your deals") and its words are about applying.

create or replace function pacta_private.messaging_block_check()
returns trigger language plpgsql set search_path = '' as $$
declare
  one uuid := (to_jsonb(new) ->> tg_argv[0])::uuid;
  other uuid := (to_jsonb(new) ->> tg_argv[1])::uuid;
begin
  if pacta_private.has_blocked(one, other) or pacta_private.has_blocked(other, one) then
    perform pacta_private.reject('blocked', 'You cannot message this person.', 403, tg_argv[1]);
  end if;
  if exists (select 1 from public.profiles p where p.id in (one, other) and p.deleted) then
    perform pacta_private.reject('account_deleted', 'This account was deleted.', 409, tg_argv[1]);
  end if;
  return new;
end $$;
revoke all on function pacta_private.messaging_block_check() from public;
grant execute on function pacta_private.messaging_block_check() to authenticated, service_role;

drop trigger b_blocks on public.conversations;
create trigger b_blocks before insert on public.conversations
  for each row execute function pacta_private.messaging_block_check('user1_id', 'user2_id');

drop trigger b_blocks on public.messages;
create trigger b_blocks before insert on public.messages
  for each row execute function pacta_private.messaging_block_check('sender_id', 'recipient_id');

drop function pacta_private.conversations_block_check();
drop function pacta_private.messages_block_check();
