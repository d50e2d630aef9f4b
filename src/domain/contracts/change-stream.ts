import { z } from 'zod';

/**
 * The events of `GET /sync/v1/stream` (Server-Sent Events), by name. The server writes them with
 * `streamEvent`, the client reads them with `readStreamEvent`: one shape on both ends.
 * - `hello`: on connect; the client pulls everything once (notices sent while it was away are lost).
 * - `change`: rows of this collection changed; the client pulls it.
 * - `session_ended`: the stream's session ended (sign-out, password change); the reconnect gets 401.
 * - `reconnect`: the instance is leaving; reconnect within this many milliseconds, at a random moment.
 */
export const changeStreamEvents = {
  hello: z.object({ protocol: z.number().int() }),
  change: z.object({ collection: z.string().min(1) }),
  session_ended: z.object({ reason: z.string() }),
  reconnect: z.object({ within: z.number().int().nonnegative() }),
};

export type ChangeStreamEventName = keyof typeof changeStreamEvents;
export type ChangeStreamEvent<E extends ChangeStreamEventName> = z.infer<(typeof changeStreamEvents)[E]>;

/** One event as the stream carries it (`event:` and `data:` lines, then a blank line). */
export function streamEvent<E extends ChangeStreamEventName>(event: E, data: ChangeStreamEvent<E>): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** An event's data as the client received it, or undefined when it is not the contract's shape. */
export function readStreamEvent<E extends ChangeStreamEventName>(
  event: E,
  data: string,
): ChangeStreamEvent<E> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = changeStreamEvents[event].safeParse(json);
  return parsed.success ? (parsed.data as ChangeStreamEvent<E>) : undefined;
}
