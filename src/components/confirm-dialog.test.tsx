import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';

test('the confirmation is a modal alert dialog named by its title, described by what will move where, Cancel first', () => {
  const html = renderToStaticMarkup(
    <ConfirmDialog
      title="Release the payout now?"
      confirmLabel="Release payout now"
      onConfirm={() => {}}
      onCancel={() => {}}
    >
      <p>$237.50 will move from escrow to the creator.</p>
    </ConfirmDialog>,
  );
  expect(html).toMatch(/role="alertdialog" aria-modal="true"/);
  const labelledBy = /aria-labelledby="([^"]+)"/.exec(html)![1]!;
  const describedBy = /aria-describedby="([^"]+)"/.exec(html)![1]!;
  expect(html).toContain(`<h2 id="${labelledBy}">Release the payout now?</h2>`);
  expect(html).toContain(`<div id="${describedBy}"><p>$237.50 will move from escrow to the creator.</p></div>`);
  expect([...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1])).toEqual([
    'Cancel',
    'Release payout now',
  ]);
});
