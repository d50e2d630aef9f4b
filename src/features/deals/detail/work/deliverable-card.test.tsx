import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { applicationDocument, dealEventDocument, type DealDocument } from '../../../../domain/collections/index.ts';
import type { PactaDatabase } from '../../../../db/index.ts';
import type { DeliverableView } from '../../../../domain/deal-work-view.ts';
import { DeliverableCard } from './deliverable-card.tsx';

const app = applicationDocument.parse({
  id: '0190a0b0-0000-7000-8000-0000000000a1',
  deal_id: '0190a0b0-0000-7000-8000-0000000000d1',
  creator_id: '0190a0b0-0000-7000-8000-000000000c01',
  status: 'accepted',
  price_funded_at: '2026-11-20T09:00:00.000Z',
});
const draft = dealEventDocument.parse({
  id: '0190a0b0-0000-7000-8000-0000000000e1',
  application_id: app.id,
  deal_id: app.deal_id,
  author_id: app.creator_id,
  kind: 'draft',
  deliverable_id: 'd1',
  links: ['https://video.example/cut-1', 'javascript:alert(1)'],
  version: 3,
});
const item: DeliverableView = {
  id: 'd1',
  title: 'Instagram Reel',
  dueDate: '2026-12-04',
  status: 'draft_submitted',
  roundsUsed: 2,
  roundsIncluded: 2,
  draft,
  changes: null,
  liveId: null,
  liveUrl: null,
  confirmDueAt: null,
};
const render = (
  myParty: 'creator' | 'brand',
  shown: DeliverableView = item,
  escrowStatus: DealDocument['escrow_status'] = 'pending',
  shownApp = app,
) =>
  renderToStaticMarkup(
    <DeliverableCard
      db={{} as PactaDatabase}
      app={shownApp}
      item={shown}
      me="someone"
      myParty={myParty}
      escrowStatus={escrowStatus}
    />,
  );

test("a draft's links open outside Pacta without a referrer; a link that is not a web link is shown as text only", () => {
  const html = render('brand');
  expect(html).toContain('href="https://video.example/cut-1" target="_blank" rel="noopener noreferrer nofollow"');
  expect(html).not.toContain('href="javascript:');
  expect(html).toContain('javascript:alert(1)');
});

test('the brand reviews with Approve and Request changes; with no rounds left, changes wait for the creator to agree', () => {
  const brand = render('brand');
  expect(brand).toContain('>Approve</button>');
  expect(brand).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Request changes<\/button>/);
  expect(brand).toContain('No revision rounds left: more only if the creator agrees.');
  const creator = render('creator');
  expect(creator).not.toContain('>Approve</button>');
  expect(creator).toContain('Agree to one more revision round');
});

test("'Submit draft' waits for the escrow to be funded and says why; once funded, the creator submits", () => {
  const toDo: DeliverableView = { ...item, status: 'not_started', draft: null, roundsUsed: 0 };
  const unfunded = render('creator', toDo, 'none');
  expect(unfunded).not.toContain('Submit draft</button>');
  expect(unfunded).toContain('The brand funds the deal before the work starts: submit the draft once it is funded.');
  const funded = render('creator', toDo, 'pending');
  expect(funded).toContain('Submit draft</button>');
  expect(funded).not.toContain('The brand funds the deal');
  // Accepted after the deal was funded: the top-up of this creator's price is not paid yet.
  const joinedLater = render('creator', toDo, 'pending', { ...app, price_funded_at: null });
  expect(joinedLater).not.toContain('Submit draft</button>');
  expect(joinedLater).toContain('The brand funds the deal before the work starts: submit the draft once it is funded.');
  const refunded = render('creator', { ...toDo, status: 'changes_requested' }, 'refunded');
  expect(refunded).not.toContain('Submit draft</button>');
  expect(refunded).toContain('This deal was refunded to the brand: no more work is submitted.');
});
