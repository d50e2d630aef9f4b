/** A document as `/sync/v1/<collection>/pull` sends it. */
export type PulledDocument = { id: string; _deleted?: boolean } & Record<string, unknown>;

/**
 * Reads a collection's feed to its end as a device does and returns the newest state of one
 * document (undefined when the user cannot see it, or it is deleted). An empty page that says
 * `pending` (an older transaction, e.g. a job's, still open) is not the end: on a busy machine the
 * first page is often that one.
 */
export async function pullDocument(
  serverUrl: string,
  headers: Record<string, string>,
  collection: string,
  id: string,
): Promise<PulledDocument | undefined> {
  let checkpoint: unknown = null;
  let found: PulledDocument | undefined;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const query = new URLSearchParams({
      limit: '1000',
      ...(checkpoint ? { checkpoint: JSON.stringify(checkpoint) } : {}),
    });
    const res = await fetch(`${serverUrl}/sync/v1/${collection}/pull?${query}`, { headers });
    if (res.status !== 200) throw new Error(`pull ${collection}: ${res.status}`);
    const page = (await res.json()) as { documents: PulledDocument[]; checkpoint: unknown; pending?: boolean };
    found = page.documents.find((d) => d.id === id) ?? found;
    if (page.documents.length === 0 && !page.pending) break;
    if (Date.now() > deadline) throw new Error(`pull ${collection}: still pending after 15 s`);
    checkpoint = page.checkpoint ?? checkpoint;
  }
  return found && !found._deleted ? found : undefined;
}
