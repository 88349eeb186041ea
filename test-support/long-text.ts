import { createHash } from 'node:crypto';

/**
 * Texts of exactly `chars` characters (UTF-16 code units) for tests of long saves, split by the
 * store into parts of `chunkChars` (mind README "Write path"). Both end on a letter, so the save's
 * trim changes nothing, and both hold `\n\n` paragraph breaks where parts are cut.
 */

/** Every paragraph different: "Paragraph 17 notes that crate 119 ships before crate 221.\n\n…". */
export function uniqueText(chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `Paragraph ${i} notes that crate ${i * 7} ships before crate ${i * 13} on the gamma.\n\nalpha `;
  return out.slice(0, chars - 1).trimEnd().padEnd(chars - 1, 'x') + 'z';
}

/** One paragraph over and over: every part of the save has the same content. */
export function repeatingText(chars: number): string {
  const out = 'The same paragraph about the gamma release, again and again.\n\n'.repeat(Math.ceil(chars / 63) + 1);
  return out.slice(0, chars - 1).trimEnd().padEnd(chars - 1, 'x') + 'z';
}

/** Hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
