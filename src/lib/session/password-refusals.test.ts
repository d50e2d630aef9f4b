import { expect, test } from 'vitest';
import { passwordRefusalMessage, passwordRefusals } from './password-refusals.ts';

test("the auth server's password refusals read as the form's sentences; other errors are left to the caller", () => {
  expect(passwordRefusalMessage({ code: 'weak_password', reasons: ['pwned'] })).toBe(passwordRefusals.tooCommon);
  expect(passwordRefusalMessage({ code: 'current_password_required' })).toBe(passwordRefusals.currentRequired);
  expect(passwordRefusalMessage({ code: 'current_password_invalid' })).toBe(passwordRefusals.currentIncorrect);
  expect(passwordRefusalMessage({ code: 'over_request_rate_limit' })).toBe(passwordRefusals.tooManyAttempts);
  // A too-short password keeps the server's own message (the forms check length first anyway).
  expect(passwordRefusalMessage({ code: 'weak_password', reasons: ['length'] })).toBeUndefined();
  expect(passwordRefusalMessage({ code: 'same_password' })).toBeUndefined();
  expect(passwordRefusalMessage(new Error('offline'))).toBeUndefined();
  expect(passwordRefusalMessage(null)).toBeUndefined();
});
