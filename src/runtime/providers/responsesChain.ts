/**
 * Continuing a stored response instead of sending the whole conversation again (the Responses API's
 * `previous_response_id`, with `store: true`): after each answer, the conversation it completes (the
 * input items sent, then the answer as the assistant message the runtime appends) is remembered by
 * a digest under the response's id; a later request whose input starts with a remembered
 * conversation is sent as that response's id and only the items after it. A conversation that was
 * changed (trimmed, summarised, edited) matches nothing and goes whole. Digests run item by item
 * (each one over the one before and the next item's JSON), so finding the longest remembered start
 * costs one pass; the memory holds the latest MAX_REMEMBERED answers.
 */
import { createHash } from 'node:crypto';

const MAX_REMEMBERED = 1_000;

export class ResponseChains {
  private readonly remembered = new Map<string, string>();

  /** The longest remembered start of `items`: the response id to continue and the items after it. */
  continuation<T>(items: readonly T[]): { previousResponseId: string; rest: T[] } | undefined {
    let found: { previousResponseId: string; rest: T[] } | undefined;
    for (const [index, digest] of digests(items).entries()) {
      const id = this.remembered.get(digest);
      if (id !== undefined) found = { previousResponseId: id, rest: items.slice(index + 1) };
    }
    return found;
  }

  /** Remembers that response `id` completed the conversation `items`. */
  remember(items: readonly unknown[], id: string): void {
    const digest = digests(items).at(-1);
    if (digest === undefined) return;
    this.remembered.delete(digest);
    this.remembered.set(digest, id);
    if (this.remembered.size > MAX_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
  }
}

/** The digest of each start of `items`: digest i covers items 0..i. */
function digests(items: readonly unknown[]): string[] {
  let previous = '';
  return items.map((item) => (previous = createHash('sha256').update(previous).update(JSON.stringify(item)).digest('hex')));
}
