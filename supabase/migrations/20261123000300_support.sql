-- The support desk's data: what a ticket is about, its activity, and the contact form as tickets.
-- (Rules and policies for these columns: 20261123000301_support_rules.sql.)
--
-- * kind: 'question' (a user's own ticket), 'dispute' (about a deal; the payments feature opens
--   these), 'contact' (a message sent through the contact form, so staff answer it from the same
--   queue and nothing a visitor sends is lost).
-- * deal_id: the deal a ticket is about (required for a dispute, optional for a question).
-- * A contact ticket from a signed-out visitor has no asker account: user_id is null there, and
--   the visitor's name and e-mail travel on the ticket (contact_name, contact_email) so staff can
--   write back. Every other ticket has its asker.
-- * Server-owned: last_activity_at (the newest message, for the ticket list), closed_at (when it
--   was last closed: the asker may reopen within 14 days of that), contact_*.

alter table public.support_tickets
  add column kind text not null default 'question' check (kind in ('question', 'dispute', 'contact')),
  add column deal_id uuid references public.deals (id),
  add column last_activity_at timestamptz not null default now(),
  add column closed_at timestamptz,
  add column contact_message_id uuid unique references public.contact_messages (id),
  add column contact_name text check (length(contact_name) <= 120),
  add column contact_email text check (length(contact_email) <= 320);

alter table public.support_tickets alter column user_id drop not null;
alter table public.support_tickets
  add constraint support_tickets_asker check (user_id is not null or kind = 'contact'),
  add constraint support_tickets_dispute_deal check (kind <> 'dispute' or deal_id is not null);

create index support_tickets_deal_idx on public.support_tickets (deal_id) where deal_id is not null;
-- The staff queue: open tickets by priority, then oldest first.
create index support_tickets_queue_idx on public.support_tickets (status, priority, created_at);

-- A reply written by staff on someone else's ticket; set by the server only.
alter table public.support_messages
  add column is_staff boolean not null default false;
