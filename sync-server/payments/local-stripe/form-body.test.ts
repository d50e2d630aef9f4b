import { expect, test } from 'vitest';
import { parseStripeForm } from './form-body.ts';

test("Stripe's bracketed form keys become nested objects and arrays", () => {
  const body = new URLSearchParams({
    mode: 'payment',
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][unit_amount]': '25000',
    'line_items[1][price]': 'price_1',
    'metadata[deal_id]': 'd1',
    'lookup_keys[0]': 'a',
    'lookup_keys[1]': 'b',
    'expand[]': 'latest_charge',
    empty: '',
  }).toString();
  expect(parseStripeForm(body)).toEqual({
    mode: 'payment',
    line_items: [{ quantity: '1', price_data: { unit_amount: '25000' } }, { price: 'price_1' }],
    metadata: { deal_id: 'd1' },
    lookup_keys: ['a', 'b'],
    expand: ['latest_charge'],
    empty: '',
  });
});

test('brackets sent percent-encoded parse the same; malformed keys are ignored', () => {
  expect(parseStripeForm('metadata%5Buser_id%5D=u1&bad]key=x')).toEqual({ metadata: { user_id: 'u1' } });
});
