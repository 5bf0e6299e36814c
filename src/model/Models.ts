/**
 * Model names as people type them: the aliases `opus`, `sonnet` and `haiku` (Claude Code's), each with an optional
 * `[1m]` suffix (the 1M-token context window), resolve to current model ids; `ANTHROPIC_DEFAULT_OPUS_MODEL`,
 * `ANTHROPIC_DEFAULT_SONNET_MODEL` and `ANTHROPIC_DEFAULT_HAIKU_MODEL` choose what an alias means, as in Claude
 * Code. Anything else is a model id and passes as it is (a local server's own names included).
 */

export type Alias = "opus" | "sonnet" | "haiku"

/** The newest model of each family in the Messages API's model list (@anthropic-ai/sdk 1.12's `Model`). */
export const aliasDefaults: Readonly<Record<Alias, string>> = {
  opus: "claude-opus-5-5",
  sonnet: "claude-sonnet-5-5",
  haiku: "claude-haiku-5-5"
}

/** What each alias means here: the defaults, with ANTHROPIC_DEFAULT_*_MODEL where set. */
export type AliasTable = Readonly<Record<Alias, string>>

/** The table from ANTHROPIC_DEFAULT_{OPUS,SONNET,HAIKU}_MODEL (empty values count as unset). */
export const aliasesFrom = (overrides: Readonly<Partial<Record<Alias, string | undefined>>>): AliasTable => {
  const pick = (alias: Alias) => {
    const value = overrides[alias]?.trim()
    return value === undefined || value === "" ? aliasDefaults[alias] : value
  }
  return { opus: pick("opus"), sonnet: pick("sonnet"), haiku: pick("haiku") }
}

/** The suffix that asks for the 1M-token context window (sent as the `context-1m` beta, not in the model id). */
export const longContextSuffix = "[1m]"
export const longContextBeta = "context-1m-2025-08-07"

const isAlias = (name: string): name is Alias => name === "opus" || name === "sonnet" || name === "haiku"

/**
 * `opus` -> the table's opus id, `sonnet[1m]` -> the sonnet id with `[1m]` kept (ModelUsage reads the context
 * window from it; ApiClient sends it as the beta), any other name unchanged. Case and spaces around are forgiven.
 */
export const resolve = (name: string, aliases: AliasTable = aliasDefaults): string => {
  const trimmed = name.trim()
  const lower = trimmed.toLowerCase()
  const long = lower.endsWith(longContextSuffix)
  const base = long ? lower.slice(0, -longContextSuffix.length) : lower
  if (!isAlias(base)) return trimmed
  return long ? `${aliases[base]}${longContextSuffix}` : aliases[base]
}

/** What a request sends for a resolved name: the id without `[1m]`, and whether the 1M-context beta goes with it. */
export const wireModel = (model: string): { readonly id: string; readonly longContext: boolean } =>
  model.toLowerCase().endsWith(longContextSuffix)
    ? { id: model.slice(0, -longContextSuffix.length), longContext: true }
    : { id: model, longContext: false }

/** The context window of a model Claude Code does not list (a local server's model, a newer id): 200k tokens. */
export const defaultContextWindow = 200_000
export const longContextWindow = 1_000_000

/**
 * The context window of a resolved model name, in tokens: 1M for the `[1m]` variants, 200k for every other model
 * (every current Claude model, and the default for a name this table does not know, which is the safe guess: a
 * smaller window only compacts earlier).
 */
export const contextWindowOf = (model: string): number =>
  model.toLowerCase().endsWith(longContextSuffix) ? longContextWindow : defaultContextWindow

/**
 * Room kept free beyond the next response's `max_tokens` when deciding to compact (Claude Code keeps ~13k). The
 * size of the context is known only from the last response; the next request adds that response's tool results
 * (a Read is capped at 25k tokens, most results are far smaller) and any hook's context, and token counts of the
 * same text drift a little between requests. 13k covers a typical turn; a turn that adds more is what the
 * `prompt is too long` retry is for.
 */
export const autoCompactMargin = 13_000

/**
 * The context size (tokens) at which the loop compacts before the next request: the window, less the room the
 * next response may take (its `max_tokens`, counted at most a quarter of the window so a huge `max_tokens` cannot
 * make every turn compact), less `autoCompactMargin`. For a 200k model asked for 32k tokens a response, 155k
 * (Claude Code compacts at roughly 150k-160k too); for 1M, 955k.
 */
export const autoCompactThreshold = (contextWindow: number, maxTokens: number): number =>
  Math.max(0, contextWindow - Math.min(maxTokens, Math.floor(contextWindow / 4)) - autoCompactMargin)
