import { expect, test } from 'vitest';
import { stillFailing, stillFailingFields } from './fixable-errors.ts';

test('a reported message stays while the input fails the same way and clears once it is fixed', () => {
  expect(stillFailing('Please select at least one niche.', 'Please select at least one niche.')).toBe(
    'Please select at least one niche.',
  );
  expect(stillFailing('Please select at least one niche.', null)).toBeNull();
  // Another problem waits for the next submit rather than replacing the one being fixed.
  expect(stillFailing('Please select at least one niche.', 'The amount must be at least $1.')).toBeNull();
  expect(stillFailing(null, 'The amount must be at least $1.')).toBeNull();
});

test('field messages clear one by one as their fields are fixed', () => {
  const reported = { name: 'Please enter your name.', email: 'Please enter a valid email.' };
  expect(stillFailingFields(reported, { email: 'Please enter a valid email.' })).toEqual({
    email: 'Please enter a valid email.',
  });
  expect(stillFailingFields(reported, {})).toEqual({});
  expect(stillFailingFields({}, { name: 'Please enter your name.' })).toEqual({});
});
