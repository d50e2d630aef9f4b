/**
 * Gathers calls that arrive together into one read. A call waits for the rest of its event-loop turn
 * (the requests that arrived with it); if fewer than `lanes` reads are running, the calls waiting then
 * are read at once, otherwise they wait for a read to end and go together in the next one (at most
 * `max` per read). So a burst of N calls costs a number of reads that grows with how long the burst
 * lasts, not with N. Every answer comes from a read that started after its call was made: nothing is
 * served from before it.
 *
 * `read` gets the inputs in call order and answers one output per input, in the same order; if it
 * throws, every call of that read fails with its error.
 */
export function batched<In, Out>(
  read: (inputs: In[]) => Promise<Out[]>,
  opts: { max: number; lanes: number },
): (input: In) => Promise<Out> {
  type Call = { input: In; resolve: (out: Out) => void; reject: (err: unknown) => void };
  const waiting: Call[] = [];
  let running = 0;
  let scheduled = false;

  function start() {
    while (running < opts.lanes && waiting.length > 0) {
      const batch = waiting.splice(0, opts.max);
      running++;
      read(batch.map((c) => c.input))
        .then(
          (outputs) => batch.forEach((c, i) => c.resolve(outputs[i]!)),
          (err: unknown) => batch.forEach((c) => c.reject(err)),
        )
        .finally(() => {
          running--;
          start();
        });
    }
  }

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        start();
      });
    });
}
