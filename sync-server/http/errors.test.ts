import { expect, test } from 'vitest';
import { ERRORS, errorBody } from '../../src/domain/contracts/errors.ts';
import { HttpError, refusal } from './errors.ts';

test('a refusal carries its code, the status the shared table gives it, and its user text by default', () => {
  const err = new HttpError(404, 'deal_not_found');
  expect(err.status).toBe(ERRORS.deal_not_found.status);
  expect(err.message).toBe('Deal not found.');
  expect(new HttpError(409, 'deal_closed', 'This deal is cancelled.').message).toBe('This deal is cancelled.');
  expect(errorBody.parse(refusal('internal_error'))).toEqual({
    code: 'internal_error',
    message: 'Server error. Please try again later.',
  });
});

test('the error codes are a closed union: a stranger or a wrong status does not compile', () => {
  // These lines are checked by `npm run typecheck` (tsconfig.test.json): each must be an error.
  // @ts-expect-error no such code in src/domain/contracts/errors.ts
  const unknown = () => new HttpError(400, 'no_such_code');
  // @ts-expect-error deal_closed is a 409, never a 404
  const wrongStatus = () => new HttpError(404, 'deal_closed');
  // @ts-expect-error the body's code is the union too
  const body = () => refusal('not_a_code');
  expect([unknown, wrongStatus, body]).toHaveLength(3);
  expect(errorBody.safeParse({ code: 'no_such_code', message: 'x' }).success).toBe(false);
});
