import { endSentence } from '../../domain/end-sentence.ts';

/** What an empty conversation says: a name ending in a full stop ("Northwind Outdoor Co.") keeps just its own. */
export function emptyConversationText(name: string): string {
  return endSentence(`No messages yet. Say hello to ${name}`);
}
