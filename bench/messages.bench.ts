/**
 * `npm run bench:messages`: message delivery latency between two people, on this machine, with its own
 * embedded Postgres (real migrations), the real sync server and two real RxDB clients (Dexie on
 * fake-indexeddb), each replicating conversations and messages as its own user.
 * Measured: from the moment the creator's client writes a message locally (what pressing Send does)
 * until the brand's client's live query of the conversation — what the open inbox renders — emits
 * it with its server sequence number. Prints median and p95.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { findOrStartConversation, sendMessage } from '../src/features/inbox/data/inbox-operations.ts';
import { fmt, hideRxdbNotice, percentile, startBenchClient, startSyncBenchServer } from './support/sync-bench-setup.ts';

const SAMPLES = Number(process.env.BENCH_MESSAGES ?? 60);

hideRxdbNotice();
const server = await startSyncBenchServer();
try {
  const url = server.url;
  const brand = await server.createUser('brand');
  const creator = await server.createUser('creator');
  console.log(
    `Pacta message delivery benchmark — ${os.cpus().length} CPU(s), Node ${process.version}, ${SAMPLES} messages\n`,
  );

  const sender = await startBenchClient(url, creator, ['conversations', 'messages']);
  const receiver = await startBenchClient(url, brand, ['conversations', 'messages']);
  await Promise.all([sender.replication.awaitInitialSync(), receiver.replication.awaitInitialSync()]);
  const conversationId = await findOrStartConversation(sender.db, creator.id, brand.id, null, 'Bench');
  await firstValueFrom(receiver.db.conversations.findOne(conversationId).$.pipe(filter(Boolean), timeout(30_000)));
  const conversation = (await sender.db.conversations.findOne(conversationId).exec())!.toJSON();

  // What the brand's open conversation renders: its messages, live.
  const shown = receiver.db.messages.find({ selector: { conversation_id: conversationId } }).$;
  const samples: number[] = [];
  for (let i = -3; i < SAMPLES; i++) {
    const body = `Message ${i} ${randomUUID()}`;
    const arrived = firstValueFrom(
      shown.pipe(
        filter((docs) => docs.some((d) => d.body === body && d.seq != null)),
        timeout(30_000),
      ),
    ).then(() => performance.now());
    // BENCH_DEBUG=1 also prints where the time goes: the push answered, the receiver's pull wrote it.
    let pushed = 0;
    let received = 0;
    const onPushed = sender.replication.states.get('messages')!.sent$.subscribe((d) => {
      if (d.body === body) pushed = performance.now();
    });
    const onReceived = receiver.replication.states.get('messages')!.received$.subscribe((d) => {
      if (d.body === body) received = performance.now();
    });
    const sent = performance.now();
    await sendMessage(sender.db, conversation, creator.id, body);
    const at = await arrived;
    onPushed.unsubscribe();
    onReceived.unsubscribe();
    if (process.env.BENCH_DEBUG)
      console.error(
        `pushed +${Math.round(pushed - sent)} ms, received +${Math.round(received - sent)} ms, shown +${Math.round(at - sent)} ms`,
      );
    if (i >= 0) samples.push(at - sent); // the first three warm the connections up
    await new Promise((r) => setTimeout(r, 30));
  }
  samples.sort((a, b) => a - b);
  console.log(
    `send → shown in the other client: median ${fmt(percentile(samples, 50))} ms, p95 ${fmt(percentile(samples, 95))} ms, max ${fmt(samples.at(-1)!)} ms (${samples.length} messages)`,
  );

  for (const c of [sender, receiver]) {
    await c.replication.stop();
    await c.db.remove();
  }
} finally {
  await server.close();
}
