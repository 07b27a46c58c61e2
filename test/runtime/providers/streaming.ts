/**
 * What the streaming provider tests share: server-sent event frames written as the APIs write them,
 * a stream drained into the parts it yielded and the error it ended with, the reply those parts
 * assemble to, and a fetch that records the body's network reads (to prove a character was split).
 */
import {
  isProviderError,
  StreamAssembler,
  type FetchLike,
  type LLMResponse,
  type LLMStreamPart,
  type ProviderError,
} from '../../../src/runtime/providers/index.js';

/** One SSE frame: `event: name` when given, one `data:` line, the blank line that ends it. */
export function sse(data: unknown, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

export interface Drained {
  parts: LLMStreamPart[];
  /** The ProviderError the stream ended with; undefined when it ended normally. */
  error?: ProviderError;
}

/** Every part the stream yields, then how it ended; a non-ProviderError failure fails the test. */
export async function drain(stream: AsyncIterable<LLMStreamPart>): Promise<Drained> {
  const parts: LLMStreamPart[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    if (!isProviderError(error)) throw error;
    return { parts, error };
  }
  return { parts };
}

/** The reply the parts assemble to, exactly as the runtime assembles it. */
export function assembled(provider: string, parts: LLMStreamPart[]): LLMResponse {
  const assembler = new StreamAssembler(provider);
  for (const part of parts) assembler.add(part);
  return assembler.response();
}

/** The global fetch, with every network read of each answer's body recorded in order. */
export function readsRecorded(): { fetch: FetchLike; reads: Uint8Array[] } {
  const reads: Uint8Array[] = [];
  const recording: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        reads.push(chunk);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(copy), { status: response.status, headers: response.headers });
  };
  return { fetch: recording, reads };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Fails the test fast instead of hanging when `promise` never settles. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} did not happen within ${ms} ms`)))]);
}
