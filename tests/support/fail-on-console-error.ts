import { afterEach, vi } from 'vitest';

// An unexpected console.error is a failure (STYLE.md, "Tests split by what they need").
let errors: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};
afterEach(() => {
  const seen = errors;
  errors = [];
  if (seen.length) throw new Error(`console.error was called: ${seen.map((a) => a.map(String).join(' ')).join('\n')}`);
});
export const allowConsoleError = () => vi.spyOn(console, 'error').mockImplementation(() => {});
