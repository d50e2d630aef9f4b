import { completePayoutOnboarding, HostedCheckoutPage, ledgerOf, PaymentPanel } from './pages/money-pages.ts';
import {
  closeApprovalWindow,
  DealWorkPanel,
  endPayoutHold,
  expectDealEmail,
  expectNotified,
  waitingCard,
} from './pages/deal-work-pages.ts';
import { seedDeals } from './pages/deals-page.ts';
import { makePicture, makeVideo } from './pages/files-pages.ts';
import type { Locator } from '@playwright/test';
import { withE2eDatabase } from './support/e2e-server-info.ts';
import { expect, test } from './support/fixtures.ts';

// The deal's work between two people on two devices: offer and counter-offer, terms, escrow, a draft
// submitted offline with a file, changes, approval, the live link, automatic confirmation and the payout hold.

const run = Date.now().toString(36);
/** A calendar day `days` from now, as a date field takes it. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** A part of the screen at phone and desktop widths (kept with the test's output, to be looked at). */
async function snap(part: Locator, name: string) {
  for (const width of [390, 1280]) {
    await part.page().setViewportSize({ width, height: 900 });
    await part.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

test('counter-offer, terms, escrow, an offline draft with a file, changes, approval, live link, automatic confirmation and the payout after the hold', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(300_000);
  const brand = await newAccount('brand', { fullName: `Work Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Work Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Trail shoes launch ${run}`], { amountCents: 25_000 });
  const dealPath = `/deals/${deal!.id}`;

  // 1. The creator applies at their own price; the brand counters with a price and a due date; the creator accepts.
  const c = await openAs(creator, dealPath, { offlineReady: true });
  await c.page.getByLabel('Your price ($)').fill('300');
  await c.page.getByLabel('Pitch (optional)').fill('Trail runner, 40k followers who buy what I test.');
  await c.page.getByRole('button', { name: 'Apply to this deal' }).click();
  await expect(c.page).toHaveURL(/\/dashboard$/);
  await expect(waitingCard(c.page)).toContainText('1 offer to answer (waiting for the brand)', { timeout: 20_000 });

  const b = await openAs(brand, '/dashboard');
  await expect(waitingCard(b.page)).toContainText('1 offer to answer', { timeout: 20_000 });
  await expectNotified(b.page, 'New application');
  await b.page.goto(dealPath);
  const brandWork = new DealWorkPanel(b.page);
  await expect(brandWork.root).toContainText(`Offer from ${creator.fullName}: $300.00`);
  await expect(brandWork.status).toHaveText('Offer sent');
  await brandWork.makeOffer('275', inDays(10));
  await expect(brandWork.root).toContainText('Your offer: $275.00');
  await snap(brandWork.root, 'brand-counter-offer');

  await c.page.goto(dealPath);
  const creatorWork = new DealWorkPanel(c.page);
  await expect(creatorWork.root).toContainText(`Offer from ${brand.fullName}: $275.00`, { timeout: 20_000 });
  await expectNotified(c.page, 'New offer');
  // What waits on someone is also an e-mail (the dev mailbox keeps it as composed for SMTP).
  await expectDealEmail(c.page.request, creator.email, 'offer', /^New offer\n[\s\S]*\$275\.00[\s\S]*Unsubscribe: http/);
  // Both sides see the history.
  await expect(creatorWork.timeline).toContainText(`${brand.fullName} made an offer: $275.00`);
  await creatorWork.button('Accept offer').click();
  await expect(creatorWork.root.getByTestId('agreed-price')).toContainText('$275.00', { timeout: 20_000 });

  // 2. The terms sheet (written from the brief) accepted by both sides.
  await expect(creatorWork.terms).toContainText('Instagram Post', { timeout: 20_000 });
  await expect(creatorWork.terms).toContainText('Revision rounds included2');
  await creatorWork.button('Accept terms').click();
  await expect(creatorWork.terms).toContainText(`Accepted by ${creator.fullName}; waiting for ${brand.fullName}.`);
  await expect(brandWork.terms).toContainText(`Accepted by ${creator.fullName}`, { timeout: 20_000 });
  await expectDealEmail(b.page.request, brand.email, 'terms_proposed', /^Terms to accept\n[\s\S]*your turn/);
  await expectNotified(b.page, /Offer accepted|Terms/);
  await brandWork.button('Accept terms').click();
  await expect(brandWork.status).toHaveText('Terms accepted', { timeout: 20_000 });
  await expect(creatorWork.status).toHaveText('Terms accepted', { timeout: 20_000 });
  await snap(creatorWork.terms, 'terms-accepted');
  // No draft before the escrow is funded: the creator is told why instead of offered 'Submit draft'.
  await expect(creatorWork.deliverable('Instagram Post')).toContainText(
    'The brand funds the deal before the work starts: submit the draft once it is funded.',
  );
  await expect(creatorWork.root.getByRole('form', { name: 'Submit draft: Instagram Post' })).toHaveCount(0);
  await snap(creatorWork.deliverable('Instagram Post'), 'draft-waits-for-funding');

  // 3. Escrow funded at the agreed price ($275 + 12% fee), the creator's payouts set up.
  const brandPanel = new PaymentPanel(b.page);
  await brandPanel.button('Fund deal ($308.00)').click();
  await new HostedCheckoutPage(b.page).pay('4242 4242 4242 4242');
  await expect(brandPanel.root).toContainText('Funded and held in escrow.', { timeout: 20_000 });
  const creatorPanel = new PaymentPanel(c.page);
  await creatorPanel.button('Set up payouts').click();
  await completePayoutOnboarding(c.page, creator.fullName);
  await expect(creatorPanel.root).toContainText('Payouts are set up', { timeout: 20_000 });

  // 4. A draft submitted offline with a file: kept on the device and shown at once, uploaded on
  // reconnect, then the draft syncs and the brand is told. The funding reached the creator's device
  // first: 'Submit draft' is offered once the escrow is funded.
  await expect(creatorWork.root.getByRole('form', { name: 'Submit draft: Instagram Post' })).toBeVisible({
    timeout: 20_000,
  });
  await c.context.setOffline(true);
  const creatorDraft = creatorWork.deliverable('Instagram Post');
  const pendingDraft = creatorDraft.getByTestId('pending-draft');
  try {
    await creatorWork.submitDraft('Instagram Post', 'https://video.example/draft-1', 'First cut, 30 s.', [
      { name: 'cover frame.png', mimeType: 'image/png', buffer: await makePicture(640, 480, '#2e86c1') },
      { name: 'first cut.mp4', mimeType: 'video/mp4', buffer: makeVideo(256 * 1024) },
      {
        name: 'shot list.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n'),
      },
    ]);
    await expect(pendingDraft.locator('img')).toHaveAttribute('src', /^blob:/);
    await expect(pendingDraft.getByRole('status')).toHaveText(
      Array(3).fill('Saved on this device. It uploads when you are back online.'),
    );
    await expect(pendingDraft).toContainText('First cut, 30 s.');
    await snap(creatorDraft, 'creator-draft-offline');
  } finally {
    await c.context.setOffline(false);
  }
  await expect(pendingDraft).toHaveCount(0, { timeout: 30_000 });
  await expect(creatorDraft.getByTestId('deliverable-status')).toHaveText('Draft submitted', { timeout: 30_000 });
  await expect(creatorWork.timeline).not.toContainText('Waiting to sync', { timeout: 30_000 });
  await b.page.goto('/dashboard');
  await expect(waitingCard(b.page)).toContainText('1 draft to review', { timeout: 20_000 });
  await expectNotified(b.page, 'Draft to review');
  await expectDealEmail(b.page.request, brand.email, 'draft_to_review', /^Draft to review\n/);

  // 5. Changes requested with comments, the draft resubmitted and approved.
  await b.page.goto(dealPath);
  const brandDraft = brandWork.deliverable('Instagram Post');
  await expect(brandDraft).toContainText('https://video.example/draft-1');
  // The file, through a signed address of the private bucket: its thumbnail, opening the full picture.
  const draftImage = brandDraft.getByTestId('draft-files').getByRole('img', { name: 'cover-frame.png' });
  await expect(draftImage).toHaveAttribute(
    'src',
    new RegExp(
      `/storage/v1/render/image/sign/deliverables/${deal!.id}/[\\w.-]+\\?token=[\\w.-]+&width=320&height=320$`,
    ),
    { timeout: 30_000 },
  );
  await expect(brandDraft.getByRole('link', { name: 'cover-frame.png' })).toHaveAttribute(
    'href',
    new RegExp(`/storage/v1/object/sign/deliverables/${deal!.id}/`),
  );
  await expect.poll(() => draftImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
  // The video in a player, the PDF as a link: each file of the draft, in the order picked.
  const signed = new RegExp(`/storage/v1/object/sign/deliverables/${deal!.id}/`);
  await expect(brandDraft.getByRole('link', { name: 'shot-list.pdf' })).toHaveAttribute('href', signed);
  await expect(brandDraft.getByLabel('first-cut.mp4')).toHaveAttribute('src', signed);
  await snap(brandDraft, 'brand-draft-with-file');
  await brandDraft.getByLabel('What should change?').fill('Show the sole grip in the first 5 seconds.');
  await brandDraft.getByRole('button', { name: 'Request changes' }).click();
  await expect(brandDraft.getByTestId('deliverable-status')).toHaveText('Changes requested');
  await expect(creatorDraft.getByTestId('deliverable-status')).toHaveText('Changes requested', { timeout: 20_000 });
  await expect(creatorDraft).toContainText('Show the sole grip in the first 5 seconds.');
  await expect(creatorDraft).toContainText('Revision rounds: 1 of 2 used');
  await expectNotified(c.page, 'Changes requested');
  await expectDealEmail(
    c.page.request,
    creator.email,
    'changes_requested',
    /Show the sole grip in the first 5 seconds\./,
  );
  await snap(creatorDraft, 'creator-changes-requested');
  // The same in the dark theme (the user's choice, kept in localStorage).
  await c.page.evaluate(() => localStorage.setItem('pacta.theme', 'dark'));
  await c.page.reload();
  await expect(c.page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await snap(creatorDraft, 'creator-changes-requested-dark');
  await c.page.goto('/dashboard');
  await expect(waitingCard(c.page)).toContainText('revision requested: due', { timeout: 20_000 });
  await c.page.goto(dealPath);
  await creatorWork.submitDraft('Instagram Post', 'https://video.example/draft-2', 'Grip shot first.');
  await expect(brandDraft).toContainText('https://video.example/draft-2', { timeout: 20_000 });
  await brandDraft.getByRole('button', { name: 'Approve' }).click();
  await expect(brandDraft.getByTestId('deliverable-status')).toHaveText('Approved');
  await expectNotified(c.page, 'Approved');

  // 6. The live link submitted; the brand has the window to confirm it.
  await expect(creatorDraft.getByRole('button', { name: 'Submit live link' })).toBeVisible({ timeout: 20_000 });
  await creatorDraft.getByLabel('Link to the published post').fill('https://instagram.example/p/trail-123');
  await creatorDraft.getByRole('button', { name: 'Submit live link' }).click();
  await expect(brandDraft).toContainText('https://instagram.example/p/trail-123', { timeout: 20_000 });
  await expect(brandDraft).toContainText('It will be confirmed automatically on');
  await expectNotified(b.page, 'Live link to confirm');
  await b.page.goto('/dashboard');
  await expect(waitingCard(b.page)).toContainText('1 live link to confirm', { timeout: 20_000 });
  await snap(waitingCard(b.page), 'brand-dashboard-waiting');

  // 7. The window closes (clock moved): confirmed automatically, the deal completes, the payout hold starts.
  await closeApprovalWindow(deal!.id);
  await b.page.goto(dealPath);
  await expect(brandDraft.getByTestId('deliverable-status')).toHaveText('Live', { timeout: 30_000 });
  await expect(brandWork.timeline).toContainText('was confirmed automatically');
  await expect(creatorWork.status).toHaveText(/^Payout on hold until /, { timeout: 30_000 });
  await expect(brandWork.status).toHaveText(/^Payout on hold until /);
  await expect(creatorPanel.root).toContainText(/Payout on hold until/, { timeout: 20_000 });
  await expectNotified(c.page, 'Work delivered');
  await c.page.goto('/dashboard');
  await expect(waitingCard(c.page)).toContainText('Payout on hold until', { timeout: 20_000 });
  await snap(waitingCard(c.page), 'creator-dashboard-hold');
  await c.page.goto(dealPath);
  await snap(c.page.locator('main'), 'creator-deal-page-hold');

  // 8. The hold ends (clock moved): the payout is released to the creator at the agreed price, less 5%.
  await endPayoutHold(deal!.id);
  await c.page.reload();
  await expect(creatorPanel.root).toContainText('Payout released: $261.25 sent to your payout account.', {
    timeout: 30_000,
  });
  await b.page.reload();
  await expect(brandPanel.root).toContainText('Payout released to the creator: $261.25.', { timeout: 30_000 });
  await expectDealEmail(c.page.request, creator.email, 'payout_released', /\$261\.25/);
  const ledger = await ledgerOf(deal!.id);
  expect(ledger.kinds).toMatchObject({ charge: 30_800, fee: 3_300, commission: 1_375, transfer: 26_125 });
  expect(ledger.held).toBe(0);
});

test('terms changed by either side: the other side sees what changes and declines or accepts; the version in force is the one shown', async ({
  newAccount,
  openAs,
}) => {
  test.setTimeout(180_000);
  const brand = await newAccount('brand', { fullName: `Terms Brand ${run}` });
  const creator = await newAccount('creator', { fullName: `Terms Creator ${run}` });
  const [deal] = await seedDeals(brand.email, [`Rain shell review ${run}`], { amountCents: 30_000 });
  const dealPath = `/deals/${deal!.id}`;
  const c = await openAs(creator, dealPath);
  await c.page.getByLabel('Your price ($)').fill('300');
  await c.page.getByRole('button', { name: 'Apply to this deal' }).click();
  await expect(c.page).toHaveURL(/\/dashboard$/);
  const b = await openAs(brand, dealPath);
  const brandWork = new DealWorkPanel(b.page);
  await brandWork.button('Accept offer').click();
  await brandWork.button('Accept terms').click();
  await c.page.goto(dealPath);
  const creatorWork = new DealWorkPanel(c.page);
  await creatorWork.button('Accept terms').click();
  await expect(creatorWork.status).toHaveText('Terms accepted', { timeout: 20_000 });

  // The creator proposes paid ads for 90 days: the form starts from the sheet in force.
  await creatorWork.button('Propose changes').click();
  const form = creatorWork.root.getByRole('form', { name: 'Propose changes to the terms' });
  await expect(form.getByLabel('Deliverable 1')).toHaveValue('Instagram Post');
  await expect(form.getByLabel('Revision rounds included')).toHaveValue('2');
  await form.getByRole('button', { name: 'Propose terms' }).click();
  await expect(form).toContainText('These terms are the same as before: change something first.');
  await form.getByLabel('Usage rights').selectOption('paid_ads');
  // The reason goes once the form changes.
  await expect(form).not.toContainText('These terms are the same as before');
  await form.getByLabel('Paid ads for (days)').fill('90');
  await snap(form, 'terms-propose-form');
  await form.getByRole('button', { name: 'Propose terms' }).click();
  const creatorProposal = creatorWork.root.getByTestId('terms-proposal');
  await expect(creatorProposal).toContainText(
    'Usage rights: Organic posts only (no paid ads) → Organic posts and paid ads for 90 days',
  );
  await expect(creatorProposal).toContainText(`Waiting for ${brand.fullName} to accept or decline.`);

  // The brand sees the proposal beside the version in force, which is still the one shown and printed.
  const brandProposal = brandWork.root.getByTestId('terms-proposal');
  await expect(brandProposal).toContainText('Organic posts and paid ads for 90 days', { timeout: 20_000 });
  await expect(brandWork.status).toHaveText('Terms to accept');
  await expect(brandWork.terms).toContainText('(version 1)');
  await expect(brandWork.terms).toContainText('Organic posts only (no paid ads)');
  await expectNotified(b.page, 'New terms to accept');
  // New terms wait on the brand's answer: an e-mail too, as an offer is.
  await expectDealEmail(b.page.request, brand.email, 'terms_proposed', /^New terms to accept\n[\s\S]*version 2/);
  await snap(brandWork.root, 'terms-proposal-brand');
  await brandProposal.getByRole('button', { name: 'Decline' }).click();
  await expect(brandWork.root.getByTestId('terms-declined')).toHaveText(
    `${brand.fullName} declined version 2. Version 1 stays in force.`,
  );
  await expect(creatorWork.root.getByTestId('terms-declined')).toBeVisible({ timeout: 20_000 });
  await expect(creatorWork.status).toHaveText('Terms accepted');
  await expect(creatorWork.timeline).toContainText(`${brand.fullName} declined terms version 2.`);
  await expectNotified(c.page, 'Terms declined');

  // The brand proposes three revision rounds; the creator accepts: version 3 is in force on both sides.
  await brandWork.proposeTerms({ revisionRounds: '3' });
  const proposal = creatorWork.root.getByTestId('terms-proposal');
  await expect(proposal).toContainText('Revision rounds included: 2 → 3', { timeout: 20_000 });
  // Only that changes: the declined version 2 was not its starting point.
  await expect(proposal.getByRole('listitem')).toHaveCount(1);
  await proposal.getByRole('button', { name: 'Accept terms' }).click();
  await expect(creatorWork.terms).toContainText('(version 3)');
  await expect(brandWork.terms).toContainText('(version 3)', { timeout: 20_000 });
  await expect(brandWork.terms).toContainText('Revision rounds included3');
  await expect(brandWork.terms).toContainText('Organic posts only (no paid ads)');
  await expect(brandWork.root.getByTestId('terms-proposal')).toHaveCount(0);
  const versions = brandWork.root.getByTestId('terms-versions');
  await versions.getByText('All versions (3)').click();
  await expect(versions).toContainText(`Version 1, written from the brief: replaced`);
  await expect(versions).toContainText(`Version 2, proposed by ${creator.fullName}: declined`);
  await expect(versions).toContainText(`Version 3, proposed by ${brand.fullName}: in force`);
  await snap(brandWork.root, 'terms-versions-brand');
});

test('Settings → Notifications: each e-mail kind turns off on its own, stays off after a reload, and the server keeps it', async ({
  newAccount,
  openAs,
}) => {
  const creator = await newAccount('creator', { fullName: `Quiet Creator ${run}` });
  const { page } = await openAs(creator, '/settings?section=notifications');
  const emails = page.getByRole('region', { name: 'E-mails' });
  const offers = emails.getByRole('checkbox', { name: 'An offer waits for your answer' });
  await expect(offers).toBeChecked();
  await offers.uncheck();
  // Saved once the switch is usable again.
  await expect(offers).toBeEnabled();
  await expect(offers).not.toBeChecked();
  await page.reload();
  await expect(offers).not.toBeChecked();
  await expect(emails.getByRole('checkbox', { name: 'Changes are requested on your draft' })).toBeChecked();
  const kinds = await withE2eDatabase(async (client) =>
    (
      await client.query<{ kind: string }>(
        `select o.kind from pacta_private.email_opt_outs o join auth.users u on u.id = o.user_id where u.email = $1`,
        [creator.email],
      )
    ).rows.map((r) => r.kind),
  );
  expect(kinds).toEqual(['offer']);
});
