// Benchmark: folding a ~6 MB Messages API stream served on 127.0.0.1, three ways, in one run:
//   weft   — ApiClient (node:http, retries, idle timeout) + Sse.events + Accumulator.fold  (fold-impl.mjs)
//   sdk    — @anthropic-ai/sdk 1.12 `client.messages.stream(...).finalMessage()`
//   naive  — fetch + split on "\n\n" + JSON.parse, folding the same message by hand (the floor)
// Medians of 7 interleaved rounds (the order rotates each round; two untimed warm-up rounds first), then weft and
// naive at 1x, 2x, 4x the stream size (linearity). The machine is shared: min and max are printed beside the
// median so a noisy run shows as one.
//
//   npm run build:lib && node scratchpad/bench/stream.mjs [--rounds 7]
import Anthropic from "@anthropic-ai/sdk"
import * as Http from "node:http"
import { isDeepStrictEqual } from "node:util"
import { run as weft } from "./fold-impl.mjs"

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 7

// ---------------------------------------------------------------------------------------------------------------
// The stream: message_start, a text block of 20k deltas, a tool_use whose ~1 MB input arrives in 5k
// input_json_delta events, another text block (10k deltas), message_delta, message_stop; pings now and then.

const words = (
  "the of and to in is that for it as with was on be by this are from or at which an not but have they you " +
  "function const return import export await async value result error stream event message content block " +
  "Effect Layer Stream Schema retry timeout decoder accumulator naïve café 日本語 emoji 🎉 \"quoted\" back\\slash"
).split(" ")

/** Deterministic pseudo-random (a fixed LCG), so every run serves the same bytes. */
const lcg = (seed) => () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)

const frame = (event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`

export const generate = (scale = 1) => {
  const random = lcg(42)
  const phrase = (n) => {
    let s = ""
    for (let i = 0; i < n; i++) s += (i === 0 ? "" : " ") + words[Math.floor(random() * words.length)]
    return s
  }
  const parts = []
  let events = 0
  const push = (event) => {
    parts.push(frame(event))
    events++
  }
  push({
    type: "message_start",
    message: {
      id: "msg_01BenchBenchBenchBenchBen",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 4821,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 12034,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        output_tokens: 1,
        service_tier: "standard"
      }
    }
  })
  const textBlock = (index, deltas) => {
    push({ type: "content_block_start", index, content_block: { type: "text", text: "" } })
    for (let i = 0; i < deltas; i++) {
      if (i % 2000 === 1999) push({ type: "ping" })
      push({ type: "content_block_delta", index, delta: { type: "text_delta", text: " " + phrase(1 + Math.floor(random() * 12)) } })
    }
    push({ type: "content_block_stop", index })
  }
  textBlock(0, 20_000 * scale)

  // A Write call with a ~1 MB file (escapes, unicode, newlines), its JSON cut into 5k pieces.
  let content = ""
  while (content.length < 1_000_000 * scale) content += `${phrase(10)}\n\t"x": ${Math.floor(random() * 1e6)},\n`
  const json = JSON.stringify({ file_path: "/work/project/src/generated/big-module.ts", content })
  push({
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_01BenchBenchBenchBenchB", name: "Write", input: {} }
  })
  const pieces = 5_000 * scale
  const size = Math.ceil(json.length / pieces)
  push({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } })
  for (let i = 0; i < json.length; i += size) {
    push({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: json.slice(i, i + size) } })
  }
  push({ type: "content_block_stop", index: 1 })

  textBlock(2, 10_000 * scale)
  push({
    type: "message_delta",
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: { input_tokens: 4821, cache_creation_input_tokens: 0, cache_read_input_tokens: 12034, output_tokens: 412_345 }
  })
  push({ type: "message_stop" })
  return { body: Buffer.from(parts.join(""), "utf8"), events }
}

// ---------------------------------------------------------------------------------------------------------------
// The server: the whole body in one write (the kernel and node split it; every client sees the same chunks).

const serve = (body) =>
  new Promise((resolve) => {
    const server = Http.createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream", "request-id": "req_bench" })
        res.end(body)
      })
    })
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` }))
  })

// ---------------------------------------------------------------------------------------------------------------
// The contenders

const request = {
  model: "claude-bench",
  max_tokens: 64000,
  messages: [{ role: "user", content: "Write the module." }]
}

const sdkClients = new Map()
export const sdk = async (url) => {
  let client = sdkClients.get(url)
  if (!client) sdkClients.set(url, (client = new Anthropic({ baseURL: url, apiKey: "bench", maxRetries: 0 })))
  const message = await client.messages.stream(request).finalMessage()
  return JSON.parse(JSON.stringify(message))
}

/** The floor: no validation, no error handling, no retries; one string buffer. */
export const naive = async (url) => {
  const response = await fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "bench", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ ...request, stream: true })
  })
  const decoder = new TextDecoder()
  let buffer = ""
  let message
  const jsonParts = new Map()
  const handle = (frameText) => {
    const at = frameText.indexOf("data: ")
    if (at < 0) return
    const event = JSON.parse(frameText.slice(at + 6))
    switch (event.type) {
      case "message_start":
        message = event.message
        break
      case "content_block_start":
        message.content[event.index] = event.content_block
        if (event.content_block.type === "tool_use") jsonParts.set(event.index, [])
        break
      case "content_block_delta": {
        const block = message.content[event.index]
        if (event.delta.type === "text_delta") block.text += event.delta.text
        else if (event.delta.type === "input_json_delta") jsonParts.get(event.index).push(event.delta.partial_json)
        break
      }
      case "content_block_stop": {
        const parts = jsonParts.get(event.index)
        if (parts) message.content[event.index].input = JSON.parse(parts.join("") || "{}")
        break
      }
      case "message_delta":
        message.stop_reason = event.delta.stop_reason
        message.stop_sequence = event.delta.stop_sequence
        message.usage = { ...message.usage, ...event.usage }
        break
    }
  }
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true })
    let end
    let start = 0
    while ((end = buffer.indexOf("\n\n", start)) >= 0) {
      handle(buffer.slice(start, end))
      start = end + 2
    }
    buffer = buffer.slice(start)
  }
  return message
}

// ---------------------------------------------------------------------------------------------------------------

const time = async (f, url) => {
  const start = performance.now()
  const result = await f(url)
  return { millis: performance.now() - start, result }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}
const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`

const main = async () => {
  const one = generate(1)
  const { server, url } = await serve(one.body)
  console.log(`stream: ${(one.body.length / 1e6).toFixed(2)} MB, ${one.events} events; node ${process.version}; ${rounds} rounds`)

  // Same answer from all three (the SDK leaves no extra fields on blocks once serialised).
  const [w, s, n] = [await weft(url), await sdk(url), await naive(url)]
  const same = (a, b) => isDeepStrictEqual(a.content, b.content) && a.stop_reason === b.stop_reason && a.usage.output_tokens === b.usage.output_tokens
  if (!same(w, n) || !same(s, n)) {
    console.error("the three folds disagree", { weft: same(w, n), sdk: same(s, n) })
    process.exitCode = 1
  }

  const contenders = { weft, sdk, naive }
  const names = Object.keys(contenders)
  // Two untimed rounds first, so every contender is measured with its code optimised (JIT), not while compiling.
  for (let round = 0; round < 2; round++) for (const name of names) await contenders[name](url)
  const times = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]
      times[name].push((await time(contenders[name], url)).millis)
    }
  }
  server.close()
  const m = Object.fromEntries(names.map((name) => [name, median(times[name])]))
  console.log("\n| contender | median | min | max |")
  console.log("|---|---:|---:|---:|")
  for (const name of names) {
    console.log(`| ${name} | ${fmt(m[name])} | ${fmt(Math.min(...times[name]))} | ${fmt(Math.max(...times[name]))} |`)
  }
  console.log(`\nweft/sdk   = ${(m.weft / m.sdk).toFixed(2)}  (target <= 0.40)`)
  console.log(`weft/naive = ${(m.weft / m.naive).toFixed(2)}  (target <= 1.10)`)

  console.log("\n| size | MB | weft median | naive median | ms per MB (weft) |")
  console.log("|---|---:|---:|---:|---:|")
  for (const scale of [1, 2, 4]) {
    const stream = scale === 1 ? one : generate(scale)
    const served = await serve(stream.body)
    const wt = []
    const nt = []
    for (let round = 0; round < rounds; round++) {
      wt.push((await time(weft, served.url)).millis)
      nt.push((await time(naive, served.url)).millis)
    }
    served.server.close()
    const mb = stream.body.length / 1e6
    console.log(`| ${scale}x | ${mb.toFixed(1)} | ${fmt(median(wt))} | ${fmt(median(nt))} | ${(median(wt) / mb).toFixed(1)} |`)
  }
  process.exit()
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
