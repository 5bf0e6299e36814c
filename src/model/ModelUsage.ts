/**
 * The per-model account of a session (the `modelUsage` of Claude Code's result frame): tokens, web searches and
 * cost of every response, summed under the model id the response named.
 */
import type { ModelUsage } from "../domain/AgentEvent.js"
import type { Usage } from "../domain/Usage.js"
import { contextWindowOf } from "./Models.js"
import { isPriced } from "./Pricing.js"

const num = (value: number | null | undefined) => value ?? 0

/**
 * `previous` (undefined for a model's first response) plus one response's usage and cost. `previous` is the same
 * model's account, so what depends on the model alone (its context window, whether it is priced) is looked up with
 * its first response only, not again for every response.
 */
export const add = (previous: ModelUsage | undefined, model: string, usage: Usage, costUSD: number): ModelUsage => ({
  inputTokens: num(previous?.inputTokens) + usage.input_tokens,
  outputTokens: num(previous?.outputTokens) + usage.output_tokens,
  cacheReadInputTokens: num(previous?.cacheReadInputTokens) + num(usage.cache_read_input_tokens),
  cacheCreationInputTokens: num(previous?.cacheCreationInputTokens) + num(usage.cache_creation_input_tokens),
  webSearchRequests: num(previous?.webSearchRequests) + num(usage.server_tool_use?.web_search_requests),
  costUSD: num(previous?.costUSD) + costUSD,
  contextWindow: previous === undefined ? contextWindowOf(model) : previous.contextWindow,
  // Its cost is unknown, not zero: a reader must not take 0 for free.
  ...((previous === undefined ? isPriced(model) : previous.unpriced !== true) ? {} : { unpriced: true })
})
