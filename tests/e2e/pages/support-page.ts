import { expect, type Locator, type Page } from '@playwright/test';
import { withE2eDatabase } from '../support/e2e-server-info.ts';

/** /support (the user's tickets or the staff queue), /support/new and /support/{id}. */
export class SupportPage {
  readonly heading: Locator;
  readonly newTicket: Locator;
  readonly subject: Locator;
  readonly message: Locator;
  readonly priority: Locator;
  readonly create: Locator;
  readonly thread: Locator;
  readonly replyBox: Locator;
  readonly sendReply: Locator;
  readonly closeTicket: Locator;
  readonly reopenTicket: Locator;
  readonly queue: Locator;
  readonly myTickets: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.newTicket = page.getByRole('link', { name: 'New Ticket' });
    this.subject = page.getByRole('textbox', { name: 'Subject' });
    this.message = page.getByRole('textbox', { name: 'Message' });
    this.priority = page.getByTestId('ticket-priority');
    this.create = page.getByRole('button', { name: 'Create Ticket' });
    this.thread = page.getByRole('list', { name: 'Messages' });
    this.replyBox = page.getByLabel('Your reply');
    this.sendReply = page.getByRole('button', { name: 'Send Reply' });
    this.closeTicket = page.getByRole('button', { name: 'Close Ticket' });
    this.reopenTicket = page.getByRole('button', { name: 'Reopen Ticket' });
    this.queue = page.getByRole('list', { name: 'Support queue' });
    this.myTickets = page.getByRole('list', { name: 'Your tickets' });
  }

  async goto() {
    await this.page.goto('/support');
    await expect(this.heading).toHaveText(/^Support/);
  }

  /** Opens a ticket through the form; answers its id (from the URL the form moves to). */
  async openTicket(subject: string, message: string): Promise<string> {
    await this.newTicket.click();
    await expect(this.heading).toHaveText('New Ticket');
    await this.subject.fill(subject);
    await this.message.fill(message);
    await this.create.click();
    await expect(this.heading).toHaveText(subject);
    return new URL(this.page.url()).pathname.split('/').pop()!;
  }

  async reply(text: string) {
    await this.replyBox.fill(text);
    await this.sendReply.click();
    await expect(this.thread.getByText(text)).toBeVisible();
  }

  /** A row of the staff queue or of the user's list, by subject. */
  row(subject: string): Locator {
    return this.page.locator('.ticket-row').filter({ hasText: subject });
  }

  /** The subjects of the staff queue, top to bottom. */
  async queueSubjects(): Promise<string[]> {
    return this.queue.locator('.ticket-subject').allTextContents();
  }
}

/** Makes an account Pro as a paid subscription would (the server's own write). */
export async function grantPro(email: string): Promise<void> {
  await withE2eDatabase(async (client) => {
    const { rowCount } = await client.query(
      `update public.profiles set pro_tier = 'premium', pro_since = now(), pro_until = now() + interval '30 days'
        where id = (select id from auth.users where email = $1)`,
      [email],
    );
    if (!rowCount) throw new Error(`no user ${email}`);
  });
}

/** A ticket as the server holds it. */
export async function serverTicket(
  id: string,
): Promise<{ priority: string; status: string; is_pro: boolean; replies: number } | undefined> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query(
      `select priority, status, is_pro, (select count(*)::int from public.support_messages m where m.ticket_id = t.id) as replies
         from public.support_tickets t where id = $1`,
      [id],
    );
    return rows[0];
  });
}

/** How many open tickets the server holds (what a staff device shows once its sync has caught up). */
export async function openTicketCountOnServer(): Promise<number> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query(
      `select count(*)::int as n from public.support_tickets where status = 'open' and not deleted`,
    );
    return rows[0].n as number;
  });
}

/** Open questions for a user, written server-side as if from another of their devices. */
export async function openTicketsOnServer(email: string, subjects: string[]): Promise<void> {
  await withE2eDatabase(async (client) => {
    for (const subject of subjects) {
      await client.query(
        `insert into public.support_tickets (id, user_id, subject, message)
         values (gen_random_uuid(), (select id from auth.users where email = $1), $2, 'Written on another device.')`,
        [email, subject],
      );
    }
  });
}
