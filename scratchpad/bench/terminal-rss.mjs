// RSS of one interactive session over many turns, in tmux (80 × 24) against the mock Messages API: each turn a
// prompt typed and a ~300-token answer streamed; VmRSS read from /proc every 50 turns, after /compact, and over as
// many turns again after it.
// Needs `npm run build` and tmux. Usage: node scratchpad/bench/terminal-rss.mjs [turns=300]
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const binary = join(root, "dist/bin/weft.cjs")
const { startMockAnthropicServer } = await import(join(root, "dist/lib/testing/MockAnthropicServer.js"))
const { textTurn } = await import(join(root, "dist/lib/testing/Script.js"))
const turns = Number(process.argv[2] ?? 300)
const paragraph = "Streaming answers stay in the scrollback and the live region is redrawn in place. ".repeat(20)
// Each answer names the question it answers (the last "question N" of the request; a compaction's summary request
// gets one too, which nobody waits for).
const server = await startMockAnthropicServer({
  pick: (request) => {
    const asked = [...JSON.stringify(request.body).matchAll(/question (\d+)/g)].pop()?.[1] ?? "0"
    return textTurn(`Answer ${asked}.\n\n${paragraph}\n\nEnd ${asked}.`)
  }
})
const dir = await mkdtemp(join(tmpdir(), "weft-bench-rss-"))
const socket = `weft-rss-${process.pid}`
const tmux = (...args) => {
  const run = spawnSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" })
  if (run.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${run.stderr}`)
  return run.stdout
}
const quote = (value) => `'${value.replace(/'/g, `'\\''`)}'`
const sleep = (ms) => new Promise((done) => setTimeout(done, ms))
// WEFT_BENCH_NODE_OPTIONS is weft's NODE_OPTIONS (e.g. --max-old-space-size=48: whether the growth is garbage V8 has not collected yet).
const env = { ...(process.env.WEFT_BENCH_NODE_OPTIONS === undefined ? {} : { NODE_OPTIONS: process.env.WEFT_BENCH_NODE_OPTIONS }), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "bench", WEFT_HOME: join(dir, "home"), HOME: join(dir, "home"), TERM: "xterm-256color" }
const waitFor = async (text, limit = 60_000) => {
  const start = performance.now()
  while (!tmux("capture-pane", "-p", "-t", "main").includes(text)) {
    if (performance.now() - start > limit) throw new Error(`gave up waiting for ${text}`)
    await sleep(10)
  }
}
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024
try {
  tmux("new-session", "-d", "-s", "main", "-x", "80", "-y", "24", "-c", dir, `env ${Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(" ")} ${quote(process.execPath)} ${quote(binary)}; sleep 600`)
  await waitFor("/help")
  const shell = Number(tmux("display-message", "-p", "-t", "main", "#{pane_pid}").trim())
  const [weft] = readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim().split(/\s+/).map(Number)
  console.log(`turns  RSS (MB)`)
  console.log(`    0  ${rssMb(weft).toFixed(0)}`)
  const started = performance.now()
  for (let turn = 1; turn <= turns; turn++) {
    tmux("send-keys", "-t", "main", "-l", `question ${turn}`)
    tmux("send-keys", "-t", "main", "Enter")
    await waitFor(`End ${turn}.`)
    if (turn % 50 === 0) console.log(`${String(turn).padStart(5)}  ${rssMb(weft).toFixed(0)}`)
  }
  const perTurn = (performance.now() - started) / turns
  tmux("send-keys", "-t", "main", "-l", "/compact")
  tmux("send-keys", "-t", "main", "Enter")
  await waitFor("Conversation compacted", 120_000)
  await sleep(2000)
  console.log(`after /compact  ${rssMb(weft).toFixed(0)}   (${perTurn.toFixed(0)} ms a turn)`)
  // As many turns again after the compaction: the conversation restarts from its summary.
  for (let turn = turns + 1; turn <= 2 * turns; turn++) {
    tmux("send-keys", "-t", "main", "-l", `question ${turn}`)
    tmux("send-keys", "-t", "main", "Enter")
    await waitFor(`End ${turn}.`)
    if (turn % 100 === 0) console.log(`${String(turn).padStart(5)}  ${rssMb(weft).toFixed(0)}   (after /compact)`)
  }
} finally {
  spawnSync("tmux", ["-L", socket, "kill-server"])
  await server.close()
  await rm(dir, { recursive: true, force: true })
}
