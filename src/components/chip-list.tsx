/** A labelled list of chips (niches, deliverables); nothing when the list is empty. */
export function ChipList({
  label,
  items,
  className = 'tag-list',
}: {
  label: string;
  items: readonly string[];
  className?: string;
}) {
  if (items.length === 0) return null;
  return (
    <ul className={className} aria-label={label}>
      {items.map((item) => (
        <li key={item} className="chip">
          {item}
        </li>
      ))}
    </ul>
  );
}
