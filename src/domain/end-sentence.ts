/** A sentence ending in a name that may end with its own full stop ("Northwind Co.") gets one, not two. */
export function endSentence(text: string): string {
  return text.endsWith('.') ? text : `${text}.`;
}
