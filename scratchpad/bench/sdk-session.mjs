// A 20-turn streaming-input session through the official Agent SDK (`query()` with an async iterable of user
// messages, each sent once the previous result came), against the mock Messages API, with weft as the SDK's Claude
// Code and, in the same run, the bare pass-through of sdk-passthrough.mjs (the least a protocol speaker can do).
// Per turn, what the process adds around the model: (user message written -> request arrives at the API) +
// (response finished -> result message read by the SDK). For the whole session: wall (query() to its end) and the
// process's peak RSS (VmHWM, read before stdin closes). Medians over the turns and over the sessions; ratios.
// Run after `npm run build` (dist/bin and dist/lib), with the Node.js of node_modules/.bin first on PATH:
//   node scratchpad/bench/sdk-session.mjs [sessions=3] [turns=20]
import { query } from "@anthropic-ai/claude-agent-sdk"
import { existsSync, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const binary = join(root, "dist/bin/weft.cjs")
const passthrough = join(root, "scratchpad/bench/sdk-passthrough.mjs")
if (!existsSync(binary) || !existsSync(join(root, "dist/lib/testing/MockAnthropicServer.js"))) {
  console.error("run `npm run build` first")
  process.exit(1)
}
const { startMockAnthropicServer } = await import(join(root, "dist/lib/testing/MockAnthropicServer.js"))
const { textTurn } = await import(join(root, "dist/lib/testing/Script.js"))

const sessions = Number(process.argv[2] ?? 3)
const turns = Number(process.argv[3] ?? 20)
const now = () => performance.timeOrigin + performance.now()
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** One session of `turns` prompts through the SDK with `executable` as its Claude Code. */
const session = async (executable) => {
  const dir = await mkdtemp(join(tmpdir(), "weft-bench-sdk-"))
  const server = await startMockAnthropicServer({ script: Array.from({ length: turns }, (_, i) => textTurn(`Answer ${i + 1}.`)) })
  const env = {
    ...process.env,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: "bench",
    WEFT_HOME: join(dir, "home"),
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`
  }
  let send
  const sent = []
  async function* prompts() {
    for (let i = 0; i < turns; i++) {
      await new Promise((resolveTurn) => (send = resolveTurn))
      sent.push(now())
      yield { type: "user", message: { role: "user", content: `Question ${i + 1}?` }, parent_tool_use_id: null, session_id: "" }
    }
  }
  const started = now()
  const q = query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: executable, cwd: dir, env } })
  const { pid } = await q.initializationResult()
  const read = []
  let peakKb = 0
  const messages = q[Symbol.asyncIterator]()
  send()
  for (;;) {
    const next = await messages.next()
    if (next.done) break
    if (next.value.type !== "result") continue
    if (next.value.is_error) throw new Error(`turn ${read.length + 1} failed: ${JSON.stringify(next.value)}`)
    read.push(now())
    if (read.length === turns) {
      peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0)
      q.close()
      break
    }
    send()
  }
  const wall = now() - started
  const requests = server.requests()
  const added = []
  for (let i = 0; i < turns; i++) {
    const finished = (await server.closed(i)).finishedAt
    added.push(requests[i].arrivedAt - sent[i] + (read[i] - finished))
  }
  await server.close()
  await rm(dir, { recursive: true, force: true })
  return { added: median(added), wall, peakMb: peakKb / 1024 }
}

await session(binary) // warm-up: the disk cache and V8's code cache
const results = { weft: [], passthrough: [] }
for (let i = 0; i < sessions; i++) {
  results.weft.push(await session(binary))
  results.passthrough.push(await session(passthrough))
}
const summary = (list) => ({
  added: median(list.map((r) => r.added)),
  wall: median(list.map((r) => r.wall)),
  peakMb: median(list.map((r) => r.peakMb))
})
const weft = summary(results.weft)
const floor = summary(results.passthrough)
console.log(`${turns}-turn streaming-input session through the Agent SDK, median of ${sessions} sessions (per turn: median of the turns)`)
console.log(`                         weft      pass-through   ratio`)
console.log(`added per turn (ms)   ${weft.added.toFixed(1).padStart(8)}   ${floor.added.toFixed(1).padStart(10)}   ${(weft.added / floor.added).toFixed(2)}x`)
console.log(`session wall (ms)     ${weft.wall.toFixed(0).padStart(8)}   ${floor.wall.toFixed(0).padStart(10)}   ${(weft.wall / floor.wall).toFixed(2)}x`)
console.log(`peak RSS (MB)         ${weft.peakMb.toFixed(1).padStart(8)}   ${floor.peakMb.toFixed(1).padStart(10)}   ${(weft.peakMb / floor.peakMb).toFixed(2)}x`)
