import { createHash } from 'node:crypto';

/**
 * Pictures for the demo's people and brands that ship none: drawn from the profile's id (the same id
 * always gets the same picture), as SVG that sharp renders at seed time. No text (no fonts needed),
 * nothing downloaded. A person gets a head-and-shoulders figure on a two-colour gradient; a brand a
 * geometric mark on a flat colour, as a logo would be.
 */

/** Warm and cool pairs that keep a light figure readable on them, in both themes. */
const PALETTES: readonly (readonly [string, string])[] = [
  ['#e0533d', '#f4a259'],
  ['#2e86c1', '#5dade2'],
  ['#1e8449', '#58d68d'],
  ['#7d3c98', '#c39bd3'],
  ['#b9770e', '#f5b041'],
  ['#17a589', '#76d7c4'],
  ['#c0392b', '#ec7063'],
  ['#34495e', '#85929e'],
  ['#a04000', '#dc7633'],
  ['#1f618d', '#a569bd'],
];

const SIDE = 256;

export function demoPictureSvg(id: string, kind: 'person' | 'brand'): string {
  const h = createHash('sha256').update(id).digest();
  const [from, to] = PALETTES[h[0]! % PALETTES.length]!;
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIDE}" height="${SIDE}" viewBox="0 0 ${SIDE} ${SIDE}">`;
  if (kind === 'person') {
    const angle = (h[1]! % 4) * 45;
    const skin = ['#fde3cf', '#f1c27d', '#e0ac69', '#c68642', '#8d5524'][h[2]! % 5];
    const headY = 96 + (h[3]! % 12);
    return (
      `${open}<defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)">` +
      `<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
      `<rect width="${SIDE}" height="${SIDE}" fill="url(#g)"/>` +
      `<ellipse cx="128" cy="${headY + 150}" rx="92" ry="84" fill="#ffffff" fill-opacity="0.9"/>` +
      `<circle cx="128" cy="${headY}" r="46" fill="${skin}"/></svg>`
    );
  }
  const mark = h[4]! % 3;
  const light = '#ffffff';
  const shapes = [
    // A ring with a dot.
    `<circle cx="128" cy="128" r="72" fill="none" stroke="${light}" stroke-width="22"/>` +
      `<circle cx="128" cy="128" r="22" fill="${to}"/>`,
    // A diamond in a diamond.
    `<rect x="66" y="66" width="124" height="124" rx="18" fill="${light}" transform="rotate(45 128 128)"/>` +
      `<rect x="104" y="104" width="48" height="48" rx="8" fill="${from}" transform="rotate(45 128 128)"/>`,
    // A triangle with a dot.
    `<polygon points="128,52 206,196 50,196" fill="${light}"/><circle cx="128" cy="160" r="24" fill="${to}"/>`,
  ];
  return `${open}<rect width="${SIDE}" height="${SIDE}" fill="${from}"/>${shapes[mark]}</svg>`;
}
