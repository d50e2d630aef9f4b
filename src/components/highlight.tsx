import { highlightParts } from '../domain/search.ts';

/** A text with the words a search matched in <mark> (read as "highlighted" by screen readers that announce it). */
export function Highlight({ text, terms }: { text: string; terms: readonly string[] | undefined }) {
  if (!terms?.length) return <>{text}</>;
  return (
    <>{highlightParts(text, terms).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text))}</>
  );
}
