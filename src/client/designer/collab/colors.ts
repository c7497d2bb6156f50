/** A stable, readable colour per user for presence avatars and selection outlines. */
const PALETTE = [
  '#e8590c',
  '#1971c2',
  '#2f9e44',
  '#c2255c',
  '#6741d9',
  '#0c8599',
  '#e67700',
  '#5c940d',
  '#a61e4d',
  '#364fc7',
  '#087f5b',
  '#862e9c',
] as const;

export function colorFor(userId: string): string {
  // FNV-1a: cheap, and spreads similar ids (same time prefix) over the palette.
  let h = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) {
    h ^= userId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return PALETTE[(h >>> 0) % PALETTE.length]!;
}
