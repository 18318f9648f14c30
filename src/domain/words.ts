// A text's first words, as a title or a quote shows them: whitespace made single spaces, and over
// `max` characters, cut at a word (within `keep` characters) with an ellipsis.

export function firstWords(text: string, max: number, keep = max - 1): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, keep).replace(/\s\S*$/, '')}…` : flat;
}
