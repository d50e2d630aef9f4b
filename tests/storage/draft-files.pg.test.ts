import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apply, asServer, asUser, expectRule, makeDeal } from '../support/rules-fixtures.ts';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.ts';

// Drafts sent as files: who may read, replace and remove a deal's files in the private deliverables
// bucket (policies on storage.objects, through the real supabase.storage client against the server),
// and which files a draft may name (public.deal_events, as the signed-in creator, under RLS).

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not used here');
  }
}

function storageFor(user: TestUser): SupabaseClient['storage'] {
  return createClient(server.url, 'pacta-local-anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as never },
    accessToken: async () => user.accessToken,
  }).storage;
}

const jpeg = (background = '#e0533d') =>
  sharp({ create: { width: 48, height: 48, channels: 3, background } })
    .jpeg()
    .toBuffer();

let server: TestServer;
let dataDir: string;
let brand: TestUser;
let creator: TestUser;
let otherCreator: TestUser;
let applicant: TestUser;
let stranger: TestUser;
let dealId: string;
let appId: string;

async function appendDraft(user: TestUser, application: string, files: string[], links: string[] = []) {
  const id = randomUUID();
  await asUser(
    server.db,
    user.id,
    `insert into public.deal_events (id, application_id, deal_id, author_id, kind, deliverable_id, files, links)
     values ($1, $2, $3, $4, 'draft', 'd1', $5, $6)`,
    [id, application, dealId, user.id, files, links],
  );
  return id;
}

async function acceptTerms(user: TestUser, application: string) {
  await asUser(
    server.db,
    user.id,
    `insert into public.deal_events (id, application_id, deal_id, author_id, kind, terms_version)
     values ($1, $2, $3, $4, 'terms_accepted', 1)`,
    [randomUUID(), application, dealId, user.id],
  );
}

/** Uploads a JPEG as `user` into the deal's folder and returns its object name. */
async function upload(user: TestUser, folder = dealId): Promise<string> {
  const name = `${folder}/${randomUUID()}-draft.jpg`;
  const { error } = await storageFor(user)
    .from('deliverables')
    .upload(name, await jpeg(), { contentType: 'image/jpeg' });
  expect(error).toBeNull();
  return name;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacta-draft-files-'));
  server = await startTestServer({ env: { DATA_DIR: dataDir } });
  [brand, creator, otherCreator, applicant, stranger] = await Promise.all([
    server.createUser({ role: 'brand' }),
    server.createUser({ role: 'creator' }),
    server.createUser({ role: 'creator' }),
    server.createUser({ role: 'creator' }),
    server.createUser({ role: 'creator' }),
  ]);
  // One deal, two creators accepted (each hands in their own work), one applicant still waiting.
  dealId = await makeDeal(server.db, brand.id, { deliverables: ['Instagram Post'], max_creators: 2 });
  appId = await apply(server.db, creator.id, dealId);
  const otherAppId = await apply(server.db, otherCreator.id, dealId);
  await apply(server.db, applicant.id, dealId);
  for (const id of [appId, otherAppId]) {
    await asUser(server.db, brand.id, `update public.applications set status = 'accepted' where id = $1`, [id]);
  }
  for (const [user, id] of [
    [creator, appId],
    [brand, appId],
    [otherCreator, otherAppId],
    [brand, otherAppId],
  ] as const) {
    await acceptTerms(user, id);
  }
  // Funded, as the money code leaves it: no draft before the escrow is funded.
  await asServer(server.db, `update public.deals set escrow_status = 'pending' where id = $1`, [dealId]);
});

afterAll(async () => {
  await server?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("a deal's files", () => {
  test('are read by the brand and the creator who uploaded them: not by another creator of the deal, an applicant or a stranger', async () => {
    const name = await upload(creator);

    for (const reader of [brand, creator]) {
      const { data, error } = await storageFor(reader).from('deliverables').createSignedUrl(name, 60);
      expect(error).toBeNull();
      expect((await fetch(data!.signedUrl)).status).toBe(200);
    }
    for (const outsider of [otherCreator, applicant, stranger]) {
      const bucket = storageFor(outsider).from('deliverables');
      // The same answer as for a file that does not exist.
      expect((await bucket.createSignedUrl(name, 60)).error).toMatchObject({
        status: 404,
        message: 'Object not found',
      });
      expect((await bucket.download(name)).error).toMatchObject({ status: 404 });
      expect((await bucket.list(dealId)).data?.map((f) => f.name) ?? []).not.toContain(name.split('/')[1]);
    }
    // The applicant and the stranger cannot put files there either.
    for (const outsider of [applicant, stranger]) {
      const write = await storageFor(outsider)
        .from('deliverables')
        .upload(`${dealId}/${randomUUID()}-x.jpg`, await jpeg(), { contentType: 'image/jpeg' });
      expect(write.error).toMatchObject({ status: 403 });
    }
  });

  test('cannot be replaced by the brand, and once a draft names them, not by their creator either, nor removed', async () => {
    const name = await upload(creator);
    const asBrand = storageFor(brand).from('deliverables');
    const asCreator = storageFor(creator).from('deliverables');
    const bytes = async () => Buffer.from(await (await asBrand.download(name)).data!.arrayBuffer());
    const uploaded = await bytes();
    // The brand sees the creator's file but can neither overwrite nor remove it.
    expect((await asBrand.upload(name, await jpeg('#000000'), { upsert: true })).error).toMatchObject({ status: 409 });
    expect((await asBrand.remove([name])).data).toEqual([]);
    expect((await bytes()).equals(uploaded)).toBe(true);

    // Before submitting, the creator may still replace the file.
    expect((await asCreator.upload(name, await jpeg('#00ff00'), { upsert: true })).error).toBeNull();
    await appendDraft(creator, appId, [name]);
    const submitted = await bytes();
    expect(submitted.equals(uploaded)).toBe(false);

    // Once submitted, the file stays as the brand saw it.
    expect((await asCreator.upload(name, await jpeg('#0000ff'), { upsert: true })).error).toMatchObject({
      status: 409,
    });
    expect((await asCreator.remove([name])).data).toEqual([]);
    expect((await bytes()).equals(submitted)).toBe(true);

    // A file no draft names is still its creator's to remove.
    const spare = await upload(creator);
    expect((await asCreator.remove([spare])).data?.map((f) => f.name)).toEqual([spare]);
  });
});

test("the brand gets a signed address of a draft picture's thumbnail, as hosted Storage renders one", async () => {
  const name = `${dealId}/${randomUUID()}-frame.jpg`;
  const big = await sharp({ create: { width: 960, height: 640, channels: 3, background: '#2e86c1' } })
    .jpeg()
    .toBuffer();
  expect((await storageFor(creator).from('deliverables').upload(name, big)).error).toBeNull();
  const { data, error } = await storageFor(brand)
    .from('deliverables')
    .createSignedUrl(name, 60, { transform: { width: 320, height: 320 } });
  expect(error).toBeNull();
  expect(data!.signedUrl).toContain(`/storage/v1/render/image/sign/deliverables/${name}?token=`);
  const thumb = await fetch(data!.signedUrl);
  expect(thumb.status).toBe(200);
  expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(320);
  // Without a transform, the picture itself.
  const full = await storageFor(brand).from('deliverables').createSignedUrl(name, 60);
  expect((await sharp(Buffer.from(await (await fetch(full.data!.signedUrl)).arrayBuffer())).metadata()).width).toBe(
    960,
  );
});

describe('a draft', () => {
  test('names files its creator uploaded to the deal, and the brand is told', async () => {
    const files = [await upload(creator), await upload(creator)];
    const draftId = await appendDraft(creator, appId, files, ['https://video.example/private/1']);
    const { rows } = await asUser(server.db, brand.id, 'select files from public.deal_events where id = $1', [draftId]);
    expect(rows[0]?.files).toEqual(files);
    const app = (await asUser(server.db, brand.id, 'select work from public.applications where id = $1', [appId]))
      .rows[0];
    expect(app?.work.d1).toMatchObject({ status: 'draft_submitted', draft_id: draftId });
  });

  test('naming any other file is refused with one answer, whether the file exists or not', async () => {
    const brandFile = await upload(brand);
    const otherCreatorsFile = await upload(otherCreator);
    const otherDeal = await makeDeal(server.db, brand.id);
    const own = await upload(creator);
    const refusals = [
      // Missing from the deal's folder.
      `${dealId}/${randomUUID()}-draft.jpg`,
      // In the folder, but someone else's.
      brandFile,
      otherCreatorsFile,
      // Outside the folder: another deal's, a public bucket's name, a climb out of the folder.
      `${otherDeal}/${randomUUID()}-draft.jpg`,
      `${creator.id}/${randomUUID()}-me.jpg`,
      `${dealId}/../${otherDeal}/x.jpg`,
    ];
    const details = new Set<string | undefined>();
    for (const file of refusals) {
      details.add((await expectRule(appendDraft(creator, appId, [own, file]), 'invalid_draft_file', 422)).detail);
    }
    // The same file twice.
    details.add((await expectRule(appendDraft(creator, appId, [own, own]), 'invalid_draft_file', 422)).detail);
    expect(details.size).toBe(1);

    // The file alone is fine.
    const draftId = await appendDraft(creator, appId, [own]);
    // Only a draft carries files: a review cannot slip one in.
    await expectRule(
      asUser(
        server.db,
        brand.id,
        `insert into public.deal_events (id, application_id, deal_id, author_id, kind, deliverable_id, ref_id, note, files)
         values ($1, $2, $3, $4, 'changes_requested', 'd1', $5, 'Shorter, please.', $6)`,
        [randomUUID(), appId, dealId, brand.id, draftId, [brandFile]],
      ),
      'files_not_allowed',
      422,
    );
  });
});
