-- "A message may carry up to 4 files; such a message may have an empty body" (20261128000200): the
-- column check of 20261122000100 still asked every body for 1 to 4,000 characters, so a message with
-- only a file was refused as a broken value. The body now holds at most 4,000 characters and is blank
-- only when the message carries a file (messages_check gives users the reasons).
alter table public.messages drop constraint messages_body_check;
alter table public.messages add constraint messages_body_check
  check (length(body) <= 4000 and (length(btrim(body)) >= 1 or jsonb_array_length(attachments) > 0));
