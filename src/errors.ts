/** What a caught value says: an `Error`'s message, or the value as text (anything may be thrown). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
