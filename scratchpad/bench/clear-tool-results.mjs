// Does clearing old tool results before a full compaction pay? A cost model of a long session under prompt
// caching, the way the loop sends it: every request reads the previous request's prompt from the cache (0.1x the
// input price) and writes what is new (1.25x, 5-minute cache); the system prompt and tools (`base`) stay cached.
// When the context reaches the auto-compact threshold (155k for a 200k window, 32k max_tokens) a full compaction
// runs: the summary request reads the whole context from the cache and writes a 3k-token summary (output, 5x),
// and the conversation starts again from base + summary (written at 1.25x).
//
// The clearing strategy: when the context passes `clearAt`, every tool result but the last `keep` is replaced by a
// 10-token note. That changes the prompt from the first cleared result on, so the next request writes everything
// after it again (1.25x) instead of reading it (0.1x). It pays if what later requests save by being smaller (read at
// 0.1x) and the compactions it avoids outweigh that rewrite.
//
//   node scratchpad/bench/clear-tool-results.mjs [turns=400] [seed=7]
//
// Prints, per mix of result sizes, the input-side cost of the session (Sonnet prices: $3/MTok input) with and
// without clearing, and the number of full compactions each needed.

const turns = Number(process.argv[2] ?? 400)
const seed = Number(process.argv[3] ?? 7)

const price = { input: 3 / 1e6, read: 0.3 / 1e6, write: 3.75 / 1e6, output: 15 / 1e6 }
const base = 15_000
const threshold = 155_000
const summaryTokens = 3_000
const callTokens = 150 // the assistant's text and tool_use per turn
const note = 10

/** A small deterministic PRNG (mulberry32). */
const random = (state) => () => {
  state |= 0
  state = (state + 0x6d2b79f5) | 0
  let t = Math.imul(state ^ (state >>> 15), 1 | state)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const mixes = {
  "small (greps, short commands, ~400)": (r) => 100 + Math.floor(r() * 600),
  "medium (~2k)": (r) => 500 + Math.floor(r() * 3000),
  "large reads (~8k)": (r) => 2000 + Math.floor(r() * 12000),
  "heavy tail (90% 500, 10% 20k)": (r) => (r() < 0.9 ? 500 : 20_000)
}

/**
 * One session. `messages` is the conversation after base: [{tokens, result: bool}]. `cachedUpTo` is the index of
 * messages whose prefix the cache holds (the previous request's whole prompt, unless it was rewritten).
 */
const simulate = (sizeOf, strategy) => {
  const r = random(seed)
  let cost = 0
  let compactions = 0
  let clearings = 0
  let messages = []
  let cachedTokens = base // what the next request reads from the cache (a prefix of its prompt)
  const total = () => base + messages.reduce((sum, m) => sum + m.tokens, 0)
  for (let turn = 0; turn < turns; turn++) {
    // This turn's request: the context as it stands.
    const prompt = total()
    cost += Math.min(cachedTokens, prompt) * price.read + Math.max(0, prompt - cachedTokens) * price.write
    cost += callTokens * price.output
    cachedTokens = prompt
    // The response and its tool result join the conversation.
    messages.push({ tokens: callTokens, result: false }, { tokens: sizeOf(r), result: true })
    const size = total()
    if (strategy.clearAt !== undefined && size >= strategy.clearAt) {
      // Clear every result but the last `keep`: the prompt changes from the first cleared one on.
      const results = messages.map((m, i) => (m.result && m.tokens > note ? i : -1)).filter((i) => i >= 0)
      const toClear = results.slice(0, Math.max(0, results.length - strategy.keep))
      const freed = toClear.reduce((sum, i) => sum + messages[i].tokens - note, 0)
      if (toClear.length > 0 && freed >= (strategy.minFreed ?? 0)) {
        const first = toClear[0]
        const before = base + messages.slice(0, first).reduce((sum, m) => sum + m.tokens, 0)
        for (const i of toClear) messages[i] = { tokens: note, result: true }
        cachedTokens = Math.min(cachedTokens, before)
        clearings++
      }
    }
    if (total() >= threshold) {
      // Full compaction: the summary request reads the context (cached) and writes the summary.
      cost += total() * price.read + summaryTokens * price.output
      messages = [{ tokens: summaryTokens, result: false }]
      cachedTokens = base
      compactions++
    }
  }
  return { cost, compactions, clearings }
}

const strategies = {
  "no clearing": {},
  "clear at 100k, keep 3": { clearAt: 100_000, keep: 3 },
  "clear at 130k, keep 5": { clearAt: 130_000, keep: 5 },
  "clear at 100k if it frees 40k, keep 3": { clearAt: 100_000, keep: 3, minFreed: 40_000 }
}

console.log(`${turns} turns, threshold ${threshold}, seed ${seed}; input-side cost in USD (Sonnet prices), compactions / clearings`)
for (const [mix, sizeOf] of Object.entries(mixes)) {
  const row = Object.entries(strategies).map(([name, strategy]) => {
    const { cost, compactions, clearings } = simulate(sizeOf, strategy)
    return `${name}: $${cost.toFixed(2)} (${compactions} / ${clearings})`
  })
  console.log(`${mix}\n  ${row.join("\n  ")}`)
}
