import { expect, test } from 'vitest';
import { CONTACT_SUBJECTS, validateContact } from './contact-validation.ts';

const valid = { name: 'Ada', email: 'ada@example.com', subject: 'billing', message: 'Hello there' };

test('the six subjects of the spec', () => {
  expect(CONTACT_SUBJECTS.map((s) => s.value)).toEqual([
    'general',
    'support',
    'partnership',
    'billing',
    'feature',
    'other',
  ]);
});

test('a complete form is valid and trimmed', () => {
  expect(validateContact({ ...valid, name: '  Ada  ', message: ' Hello there \n' })).toEqual({
    ok: true,
    value: valid,
  });
});

test('every field is required', () => {
  const result = validateContact({ name: ' ', email: '', subject: '', message: '   ' });
  expect(result).toEqual({
    ok: false,
    errors: {
      name: 'Please enter your name.',
      email: 'Please enter your email address.',
      subject: 'Please choose a subject.',
      message: 'Please enter a message.',
    },
  });
});

test('the email must look like one and the subject must be from the list', () => {
  expect(validateContact({ ...valid, email: 'ada@example' })).toEqual({
    ok: false,
    errors: { email: 'Please enter a valid email address.' },
  });
  expect(validateContact({ ...valid, subject: 'spam' })).toEqual({
    ok: false,
    errors: { subject: 'Please choose a subject.' },
  });
});

test('over-long fields are refused before they reach the server', () => {
  expect(validateContact({ ...valid, name: 'x'.repeat(121) }).ok).toBe(false);
  expect(validateContact({ ...valid, message: 'x'.repeat(10_001) }).ok).toBe(false);
});
