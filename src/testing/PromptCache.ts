/**
 * A model of the Messages API's prompt cache, for the mock server: what a request would read from the cache and
 * write to it, reported as the API reports it (`cache_read_input_tokens`, `cache_creation_input_tokens` and the
 * `cache_creation` object by lifetime).
 *
 * As the API does it: a request is a sequence of blocks in the order tools -> system -> messages; a block that
 * carries `cache_control` is a breakpoint, where the prefix up to and including it is written to the cache; the
 * prefix read is the longest one that an earlier request wrote, looked for at each breakpoint and at the 20 blocks
 * before it. The markers are not part of what is compared (a breakpoint that moves on leaves the prefix the same),
 * and each model has its own cache. Not modelled: the minimum cacheable length and the expiry of entries. Tokens
 * are the mock's estimate (4 characters a token) of the blocks' JSON.
 */
import { createHash, type Hash } from "node:crypto"
import { isRecord } from "../domain/Json.js"

// A type, not an interface: it is spread into a Usage, whose record index an interface does not satisfy.
export type CacheUsage = {
  readonly input_tokens: number
  readonly cache_read_input_tokens: number
  readonly cache_creation_input_tokens: number
  readonly cache_creation: {
    readonly ephemeral_5m_input_tokens: number
    readonly ephemeral_1h_input_tokens: number
  }
}

/** How many blocks before a breakpoint the API looks for an entry to read. */
export const lookbackBlocks = 20

interface Block {
  /** The block's JSON without its marker, with where it sits (a tool, the system prompt, a message's role). */
  readonly text: string
  /** The marker's lifetime, when the block is a breakpoint. */
  readonly ttl: "5m" | "1h" | undefined
}

const block = (place: string, value: unknown): Block => {
  if (!isRecord(value)) return { text: JSON.stringify([place, value]), ttl: undefined }
  const { cache_control: marker, ...rest } = value
  const ttl = marker === undefined ? undefined : isRecord(marker) && marker["ttl"] === "1h" ? "1h" : "5m"
  return { text: JSON.stringify([place, rest]), ttl }
}

/** The request's blocks in the order the cache sees them. */
const blocksOf = (body: Record<string, unknown>): ReadonlyArray<Block> => {
  const blocks: Array<Block> = []
  if (Array.isArray(body["tools"])) for (const tool of body["tools"]) blocks.push(block("tool", tool))
  const system = body["system"]
  if (typeof system === "string") blocks.push(block("system", { type: "text", text: system }))
  else if (Array.isArray(system)) for (const part of system) blocks.push(block("system", part))
  if (Array.isArray(body["messages"])) {
    body["messages"].forEach((message, index) => {
      if (!isRecord(message)) return
      // The position in the conversation is part of a block's place: two messages never merge into one.
      const place = `${index}:${String(message["role"])}`
      const content = message["content"]
      if (typeof content === "string") blocks.push(block(place, { type: "text", text: content }))
      else if (Array.isArray(content)) for (const part of content) blocks.push(block(place, part))
    })
  }
  return blocks
}

const tokens = (characters: number): number => Math.ceil(characters / 4)

/** The prompt cache of one mock server: `use` answers a request's usage and records what it wrote. */
export class PromptCache {
  private readonly entries = new Set<string>()

  use(body: Record<string, unknown>): CacheUsage {
    const blocks = blocksOf(body)
    const model = typeof body["model"] === "string" ? body["model"] : ""
    const hash: Hash = createHash("sha256").update(JSON.stringify(model))
    // Characters up to and including each block, and the prefix's key where it may be looked up or written.
    const characters: Array<number> = []
    const keys = new Map<number, string>()
    const breakpoints: Array<number> = []
    blocks.forEach((each, index) => {
      if (each.ttl !== undefined) breakpoints.push(index)
    })
    const wanted = new Set<number>()
    for (const breakpoint of breakpoints) {
      for (let index = Math.max(0, breakpoint - lookbackBlocks); index <= breakpoint; index++) wanted.add(index)
    }
    let total = 0
    blocks.forEach((each, index) => {
      hash.update(each.text)
      hash.update("\u0000")
      total += each.text.length
      characters.push(total)
      if (wanted.has(index)) keys.set(index, hash.copy().digest("hex"))
    })

    let read = -1
    for (const [index, key] of keys) if (index > read && this.entries.has(key)) read = index
    let fiveMinutes = 0
    let oneHour = 0
    let written = read
    for (const breakpoint of breakpoints) {
      const key = keys.get(breakpoint)
      if (key !== undefined) this.entries.add(key)
      if (breakpoint <= written) continue
      const added = tokens(characters[breakpoint] ?? 0) - tokens(characters[written] ?? 0)
      if (blocks[breakpoint]?.ttl === "1h") oneHour += added
      else fiveMinutes += added
      written = breakpoint
    }
    const readTokens = read < 0 ? 0 : tokens(characters[read] ?? 0)
    const lastWritten = written < 0 ? 0 : tokens(characters[written] ?? 0)
    return {
      input_tokens: Math.max(0, tokens(total) - lastWritten),
      cache_read_input_tokens: readTokens,
      cache_creation_input_tokens: fiveMinutes + oneHour,
      cache_creation: { ephemeral_5m_input_tokens: fiveMinutes, ephemeral_1h_input_tokens: oneHour }
    }
  }
}
