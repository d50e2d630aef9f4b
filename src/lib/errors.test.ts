import { expect, test } from 'vitest';
import { STATUS_MESSAGES, classifyError, errorMessage, messageForStatus, settingsLoadError } from './errors.ts';

test('maps statuses to the exact catalogue texts', () => {
  expect(errorMessage({ status: 400 })).toBe('Invalid request. Please check your input.');
  expect(errorMessage({ status: 403 })).toBe('Access denied. You do not have permission for this action.');
  expect(errorMessage({ status: 404 })).toBe('Resource not found.');
  expect(errorMessage({ status: 500 })).toBe('Server error. Please try again later.');
  expect(errorMessage({ status: 503, message: 'upstream down' })).toBe('Server error. Please try again later.');
  expect(errorMessage(502)).toBe('Server error. Please try again later.');
  expect(messageForStatus(418)).toBeUndefined();
});

test('a 401 or a token error means the session expired', () => {
  expect(classifyError({ status: 401 })).toEqual({
    kind: 'session_expired',
    message: 'Session expired. Please sign in again.',
  });
  expect(classifyError({ statusCode: '401' }).kind).toBe('session_expired');
  expect(classifyError(new Error('JWT expired')).kind).toBe('session_expired');
  expect(classifyError({ code: 'PGRST301', message: 'x' }).kind).toBe('session_expired');
});

test('other errors keep their own message, or fall back to the generic one', () => {
  expect(errorMessage({ status: 409, message: 'Already applied' })).toBe('Already applied');
  expect(errorMessage(new Error('Deal not found.'))).toBe('Deal not found.');
  expect(errorMessage('Network down')).toBe('Network down');
  expect(errorMessage(undefined)).toBe(STATUS_MESSAGES.unexpected);
  expect(errorMessage({ status: 422, message: '  ' })).toBe('An unexpected error occurred. Please try again.');
  expect(errorMessage(null)).toBe('An unexpected error occurred. Please try again.');
});

test('the settings load error names its reason', () => {
  expect(settingsLoadError('offline')).toBe('Failed to load settings: offline');
});

test("a server refusal's code is shown in the shared table's words", () => {
  expect(
    errorMessage({ status: 403, code: 'current_password_invalid', message: 'Current password is incorrect.' }),
  ).toBe('Your current password is incorrect');
  expect(errorMessage({ status: 409, code: 'deal_closed' })).toBe('This deal is cancelled.');
  // A code the table does not know falls back to the status's words.
  expect(errorMessage({ status: 403, code: 'PGRST999' })).toBe(STATUS_MESSAGES.forbidden);
});
