import { expect, test } from 'vitest';
import type { JwtClaims } from '../db/database.ts';
import { rememberVerifiedTokens } from './verified-tokens.ts';

function counting(claimsOf: (token: string) => JwtClaims) {
  const calls: string[] = [];
  const verify = async (token: string) => {
    calls.push(token);
    if (token === 'forged') throw new Error('bad signature');
    return claimsOf(token);
  };
  return { calls, verify };
}

test('a token that verified is not verified again until its expiry, and never past five minutes', async () => {
  let clock = 1_000_000_000_000;
  const exp = clock / 1000 + 3600;
  const { calls, verify } = counting((token) => ({ sub: token, role: 'authenticated', exp }));
  const remembered = rememberVerifiedTokens(verify, { now: () => clock });

  expect((await remembered('a')).sub).toBe('a');
  expect((await remembered('a')).sub).toBe('a');
  expect(calls).toEqual(['a']);
  clock += 5 * 60_000;
  await remembered('a');
  expect(calls).toEqual(['a', 'a']);

  const { calls: shortCalls, verify: short } = counting((token) => ({
    sub: token,
    role: 'authenticated',
    exp: clock / 1000 + 10,
  }));
  const rememberedShort = rememberVerifiedTokens(short, { now: () => clock });
  await rememberedShort('b');
  clock += 10_000;
  await rememberedShort('b');
  expect(shortCalls).toEqual(['b', 'b']);
});

test('a token that failed is checked again every time, and a token without exp is never remembered', async () => {
  const { calls, verify } = counting((token) => ({ sub: token, role: 'authenticated' }));
  const remembered = rememberVerifiedTokens(verify);
  await expect(remembered('forged')).rejects.toThrow('bad signature');
  await expect(remembered('forged')).rejects.toThrow('bad signature');
  await remembered('no-exp');
  await remembered('no-exp');
  expect(calls).toEqual(['forged', 'forged', 'no-exp', 'no-exp']);
});
