/** A text as a regular expression matching it literally (a user's search term inside a `$regex`). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
