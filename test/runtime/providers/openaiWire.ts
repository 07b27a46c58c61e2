/** Pieces of OpenAI's Chat Completions wire format that several provider tests write. */

/** The `usage` object as OpenAI writes it (with its token details), for the token counts given. */
export function openaiUsage(tokens: { prompt: number; completion: number; cached?: number }): Record<string, unknown> {
  return {
    prompt_tokens: tokens.prompt,
    completion_tokens: tokens.completion,
    total_tokens: tokens.prompt + tokens.completion,
    prompt_tokens_details: { cached_tokens: tokens.cached ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}
