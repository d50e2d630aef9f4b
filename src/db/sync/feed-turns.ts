/**
 * A collection's pushes and the reads of a restarted feed take turns.
 *
 * A restarted feed (a reset, or a first pull of a device that holds documents but no checkpoint) is
 * compared with every local document, and each one the feed lacks is removed unless a change of it still
 * waits to be pushed. A push answered while the feed was read falls between the two: no longer waiting,
 * maybe committed after the feed's snapshot, so the document went until the next pull brought it back. A
 * ticket written during a warm start's first second vanished that way, and stayed gone when the
 * connection dropped before that pull. So a feed is read once the pushes in flight are answered, and
 * pushes asked for meanwhile wait for it: every push is then either in the feed or still waiting, once
 * the server holds no row back (a feed holds a row once every older transaction has ended; a feed that
 * ended with rows held back is read again before anything goes: see `restartedFeed` in pull-page.ts).
 */
export function createFeedTurns() {
  const inFlight = new Set<Promise<unknown>>();
  let reading: Promise<unknown> | undefined;

  // Each side checks for a read in the same synchronous step as it starts its own work: a check that
  // resolved a moment earlier lets a read and a push asked for together run side by side.
  return {
    /** Sends a push once no feed is being read; the feed reads after it wait for its answer. */
    async push<T>(send: () => Promise<T>): Promise<T> {
      while (reading) await reading.catch(() => {});
      const sent = send();
      inFlight.add(sent);
      try {
        return await sent;
      } finally {
        inFlight.delete(sent);
      }
    },
    /** Reads a restarted feed once the pushes in flight are answered; pushes asked for meanwhile wait. */
    async readFeed<T>(read: () => Promise<T>): Promise<T> {
      while (reading) await reading.catch(() => {});
      const turn = (async () => {
        await Promise.allSettled([...inFlight]);
        return read();
      })();
      reading = turn;
      try {
        return await turn;
      } finally {
        if (reading === turn) reading = undefined;
      }
    },
  };
}

export type FeedTurns = ReturnType<typeof createFeedTurns>;
