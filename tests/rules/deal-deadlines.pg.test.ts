import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase, type Database } from '../../sync-server/db/database.ts';
import { DEADLINE_MESSAGES } from '../../src/domain/deal-deadline.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { apply, asServer, asUser, expectRule, makeDeal, makeUser } from '../support/rules-fixtures.ts';

// A deal's deadline must not be a day that has already ended (20261128000700_deal_deadlines.sql,
// predicted by src/domain/deal-deadline.ts): refused on publishing and on changing the deadline, and
// a deal already past its deadline takes no new applications.

let db: Database;
let drop: () => Promise<void>;
let brand: string;
let creator: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDatabase(database.url);
  [brand, creator] = await Promise.all([makeUser(db, 'brand'), makeUser(db, 'creator')]);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

/** A calendar day `days` from today (UTC), as the date field writes it. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** Today where the calendar is furthest behind (UTC−12): the earliest day someone may call today. */
const earliestToday = () => new Date(Date.now() - 12 * 3_600_000).toISOString().slice(0, 10);

describe('a deal’s deadline', () => {
  test('a deal cannot be published with a deadline in the past, with the message the form shows', async () => {
    const err = await expectRule(makeDeal(db, brand, { deadline: '2020-01-01' }), 'deadline_passed', 422);
    expect(err).toMatchObject({ detail: DEADLINE_MESSAGES.past, hint: 'deadline' });
    await expectRule(makeDeal(db, brand, { deadline: dayFromToday(-3) }), 'deadline_passed', 422);
  });

  test('today (in any time zone), a later day, free text and no deadline are accepted', async () => {
    for (const deadline of [earliestToday(), dayFromToday(0), dayFromToday(30), 'Within 2 weeks', null]) {
      await makeDeal(db, brand, { deadline });
    }
  });

  test('a day that does not exist is refused', async () => {
    const err = await expectRule(makeDeal(db, brand, { deadline: '2099-02-30' }), 'invalid_deadline', 422);
    expect(err.detail).toBe(DEADLINE_MESSAGES.invalid);
  });

  test('the edit refuses a past deadline; a deal already past its deadline can still be edited otherwise', async () => {
    const dealId = await makeDeal(db, brand, { deadline: dayFromToday(10) });
    await expectRule(
      asUser(db, brand, `update public.deals set deadline = '2020-01-01' where id = $1`, [dealId]),
      'deadline_passed',
      422,
    );
    // Its deadline passes (written as the server, as time would).
    await asServer(db, `alter table public.deals disable trigger b_deadline`);
    await asServer(db, `update public.deals set deadline = '2020-01-01' where id = $1`, [dealId]);
    await asServer(db, `alter table public.deals enable trigger b_deadline`);
    await asUser(db, brand, `update public.deals set title = 'Renamed' where id = $1`, [dealId]);
    const row = (await asServer(db, 'select title, deadline from public.deals where id = $1', [dealId])).rows[0];
    expect(row).toEqual({ title: 'Renamed', deadline: '2020-01-01' });
  });

  test('a deal past its deadline takes no new applications; one with a future deadline does', async () => {
    const open = await makeDeal(db, brand, { deadline: dayFromToday(10) });
    await apply(db, creator, open);
    const past = await makeDeal(db, brand, { deadline: dayFromToday(10) });
    await asServer(db, `alter table public.deals disable trigger b_deadline`);
    await asServer(db, `update public.deals set deadline = '2020-01-01' where id = $1`, [past]);
    await asServer(db, `alter table public.deals enable trigger b_deadline`);
    await expectRule(apply(db, creator, past), 'deadline_passed', 409);
  });
});
