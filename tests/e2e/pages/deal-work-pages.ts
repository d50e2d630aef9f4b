import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { DealEmailKind } from '../../../src/domain/deal-emails.ts';
import { withE2eDatabase } from '../support/e2e-server-info.ts';
import { NotificationBell } from './inbox-page.ts';

/** One creator's work on the deal page ("Your offer and work" / "Work with {creator}"). */
export class DealWorkPanel {
  readonly root: Locator;
  readonly status: Locator;
  readonly terms: Locator;
  readonly timeline: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('deal-work');
    this.status = this.root.getByTestId('work-status');
    this.terms = this.root.getByTestId('terms-sheet');
    this.timeline = this.root.getByTestId('timeline');
  }

  button(name: string) {
    return this.root.getByRole('button', { name, exact: true });
  }

  deliverable(title: string) {
    return this.root.getByTestId('deliverable').filter({ has: this.page.getByRole('heading', { name: title }) });
  }

  async makeOffer(price: string, dueDate: string) {
    await this.button('Make an offer').click();
    const form = this.root.getByRole('form', { name: 'Make an offer' });
    await form.getByLabel('Price ($)').fill(price);
    await form.getByLabel('Due date (optional)').fill(dueDate);
    await form.getByRole('button', { name: 'Send offer' }).click();
  }

  /** 'Propose changes' to the terms: the usage rights (paid ads for `paidAdsDays`, or as they are) and the rounds. */
  async proposeTerms(change: { paidAdsDays?: string; revisionRounds?: string }) {
    await this.button('Propose changes').click();
    const form = this.root.getByRole('form', { name: 'Propose changes to the terms' });
    if (change.paidAdsDays) {
      await form.getByLabel('Usage rights').selectOption('paid_ads');
      await form.getByLabel('Paid ads for (days)').fill(change.paidAdsDays);
    }
    if (change.revisionRounds) await form.getByLabel('Revision rounds included').fill(change.revisionRounds);
    await form.getByRole('button', { name: 'Propose terms' }).click();
  }

  async submitDraft(
    deliverable: string,
    link: string,
    note: string,
    files: { name: string; mimeType: string; buffer: Buffer }[] = [],
  ) {
    const form = this.root.getByRole('form', { name: `Submit draft: ${deliverable}` });
    if (files.length) await form.getByLabel('Files', { exact: true }).setInputFiles(files);
    await form.getByLabel('Links to the draft').fill(link);
    await form.getByLabel('Note (optional)').fill(note);
    await form.getByRole('button', { name: 'Submit draft' }).click();
  }
}

/** The dashboard's "What waits on whom". */
export function waitingCard(page: Page): Locator {
  return page.getByTestId('work-waiting');
}

/** The bell's dropdown lists a notification with this title (and closes again). */
export async function expectNotified(page: Page, title: string | RegExp) {
  const bell = new NotificationBell(page);
  await bell.open();
  await expect(bell.dropdown).toContainText(title, { timeout: 20_000 });
  await page.keyboard.press('Escape');
}

/**
 * Moves the deal's clocks as time passing would (written as the server): the live links' approval
 * window closes (the confirmation job's next run, within 15 s, confirms them), or the payout hold
 * ends (then the money jobs are woken as their schedule would).
 */
export async function closeApprovalWindow(dealId: string): Promise<void> {
  await withE2eDatabase(async (client) => {
    await client.query(
      `update public.applications a
          set work = (select jsonb_object_agg(k, case when v ->> 'status' = 'live_submitted'
                                                      then jsonb_set(v, '{confirm_due_at}', to_jsonb(now() - interval '1 minute'))
                                                      else v end)
                        from jsonb_each(a.work) as w(k, v))
        where a.deal_id = $1 and a.work <> '{}'::jsonb`,
      [dealId],
    );
  });
}

export async function endPayoutHold(dealId: string): Promise<void> {
  await withE2eDatabase(async (client) => {
    await client.query(
      `update public.applications set payout_due_at = now() - interval '1 minute'
        where deal_id = $1 and payout_due_at is not null`,
      [dealId],
    );
    await client.query('notify pacta_money');
  });
}

/**
 * The deal e-mail of `kind` to `email`, as composed for SMTP and kept for the dev mailbox (the sender
 * runs every 15 s), polled until it is there.
 */
export async function expectDealEmail(
  request: APIRequestContext,
  email: string,
  kind: DealEmailKind,
  text: string | RegExp,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await request.get(`/auth/v1/dev/mailbox.json?email=${encodeURIComponent(email)}`);
        const { dealEmails } = (await response.json()) as {
          dealEmails: { kind: string; subject: string; text: string }[];
        };
        return dealEmails.filter((m) => m.kind === kind).map((m) => `${m.subject}\n${m.text}`);
      },
      { message: `a "${kind}" e-mail to ${email}`, timeout: 45_000 },
    )
    .toContainEqual(expect.stringMatching(text));
}
