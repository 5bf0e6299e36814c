// The interactive terminal, measured in tmux (80 × 24) against the mock Messages API:
// - bytes written to the terminal per streamed token over a 2,000-token answer (the token's own bytes as the
//   baseline: the ratio), and cursor-movement / erase sequences per second while streaming;
// - keystroke-to-echo latency while the answer streams;
// - CPU of weft idle at the prompt over 10 s (from /proc), and while streaming;
// - time to paste 1 MB (tmux's bracketed paste) until the prompt shows it;
// - time from `weft` to a usable prompt, beside `weft -p --version` in the same run.
// Needs `npm run build` (dist/bin and dist/lib) and tmux. Usage: node scratchpad/bench/terminal.mjs [tokens] [msPerToken]
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const binary = join(root, "dist/bin/weft.cjs")
if (!existsSync(binary) || !existsSync(join(root, "dist/lib/testing/MockAnthropicServer.js"))) {
  console.error("run `npm run build` first")
  process.exit(1)
}
if (spawnSync("tmux", ["-V"]).status !== 0) {
  console.error("needs tmux")
  process.exit(1)
}
const { startMockAnthropicServer } = await import(join(root, "dist/lib/testing/MockAnthropicServer.js"))
const { ScriptTurn } = await import(join(root, "dist/lib/testing/Script.js"))

const tokenCount = Number(process.argv[2] ?? 2000)
const msPerToken = Number(process.argv[3] ?? 4)
const words = ["the", "terminal", "draws", "only", "what", "changed,", "and", "finished", "lines", "stay", "put."]
const tokens = Array.from({ length: tokenCount }, (_, index) => {
  const word = words[index % words.length]
  if (index === tokenCount - 1) return "END-OF-ANSWER\n"
  return index % 12 === 11 ? `${word}\n` : index % 97 === 96 ? `${word}\n\n` : `${word} `
})
const events = [
  {
    type: "message_start",
    message: { id: "msg_bench", type: "message", role: "assistant", model: "claude-bench", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } }
  },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  ...tokens.map((token) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: token } })),
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: tokenCount } },
  { type: "message_stop" }
]

const dir = await mkdtemp(join(tmpdir(), "weft-bench-terminal-"))
const server = await startMockAnthropicServer({ script: [ScriptTurn.events(events, { delay: `${msPerToken} millis` })] })
const socket = `weft-bench-${process.pid}`
const tmux = (...args) => {
  const run = spawnSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" })
  if (run.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${run.stderr}`)
  return run.stdout
}
const quote = (value) => `'${value.replace(/'/g, `'\\''`)}'`
const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "bench", WEFT_HOME: join(dir, "home"), HOME: join(dir, "home"), TERM: "xterm-256color" }
const sleep = (ms) => new Promise((done) => setTimeout(done, ms))
const clockTicks = 100 // USER_HZ
const cpuOf = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / clockTicks // utime + stime, seconds
}
const childOf = (pid) => readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)

try {
  // Time to a usable prompt: from the start of the pane's command until the status line is on screen.
  const out = join(dir, "pane.out")
  const started = performance.now()
  tmux("new-session", "-d", "-s", "main", "-x", "80", "-y", "24", "-c", dir, `env ${Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(" ")} ${quote(process.execPath)} ${quote(binary)}; sleep 600`)
  tmux("pipe-pane", "-t", "main", `cat >> ${quote(out)}`)
  let promptMs
  for (;;) {
    if (tmux("capture-pane", "-p", "-t", "main").includes("/help")) {
      promptMs = performance.now() - started
      break
    }
    if (performance.now() - started > 20_000) throw new Error("no prompt within 20 s")
    await sleep(2)
  }
  const versionRuns = Array.from({ length: 5 }, () => {
    const start = performance.now()
    spawnSync(process.execPath, [binary, "-p", "--version"])
    return performance.now() - start
  }).sort((a, b) => a - b)
  const versionMs = versionRuns[2]

  const shell = Number(tmux("display-message", "-p", "-t", "main", "#{pane_pid}").trim())
  const [weft] = childOf(shell)

  // Idle at the prompt for 10 s, once start-up's own work (the compile cache, GC) has settled.
  await sleep(3000)
  const idleBefore = cpuOf(weft)
  const idleStart = performance.now()
  await sleep(10_000)
  const idleCpu = (cpuOf(weft) - idleBefore) / ((performance.now() - idleStart) / 1000)

  // Streaming a 2,000-token answer.
  const before = statSync(out).size
  const cpuBefore = cpuOf(weft)
  const streamStart = performance.now()
  tmux("send-keys", "-t", "main", "-l", "tell me")
  tmux("send-keys", "-t", "main", "Enter")
  // Keystroke to echo while the answer streams: a key typed 1 s in, until the prompt shows it (tmux's capture
  // every 1 ms: the figure includes tmux's own time).
  await sleep(1000)
  const keyStart = performance.now()
  tmux("send-keys", "-t", "main", "-l", "Q")
  while (!/^> Q\s*$/m.test(tmux("capture-pane", "-p", "-t", "main"))) {
    if (performance.now() - keyStart > 10_000) throw new Error("the key was not echoed within 10 s")
    await sleep(1)
  }
  const echoMs = performance.now() - keyStart
  for (;;) {
    const screen = tmux("capture-pane", "-p", "-t", "main")
    if (screen.includes("END-OF-ANSWER") && screen.includes("default mode")) break
    if (performance.now() - streamStart > 120_000) throw new Error("the answer did not finish")
    await sleep(20)
  }
  const streamSeconds = (performance.now() - streamStart) / 1000
  const streamCpu = (cpuOf(weft) - cpuBefore) / streamSeconds
  await sleep(200)
  const written = readFileSync(out, "latin1").slice(before)
  const bytes = Buffer.byteLength(written, "latin1")
  const tokenBytes = Buffer.byteLength(tokens.join(""), "utf8")
  const moves = (written.match(/\x1b\[\d*[ABCDJK]/g) ?? []).length

  // Pasting 1 MB (bracketed, as a terminal pastes): until the prompt shows it, and the prompt sent back empty.
  const pasteFile = join(dir, "paste.txt")
  writeFileSync(pasteFile, Array.from({ length: 16_384 }, (_, index) => `${String(index).padStart(6, "0")} ${"p".repeat(56)}`).join("\n"))
  tmux("load-buffer", "-b", "big", pasteFile)
  const pasteStart = performance.now()
  tmux("paste-buffer", "-p", "-d", "-b", "big", "-t", "main")
  let pasteMs
  for (;;) {
    if (tmux("capture-pane", "-p", "-t", "main").includes("[Pasted text #1")) {
      pasteMs = performance.now() - pasteStart
      break
    }
    if (performance.now() - pasteStart > 30_000) throw new Error("the paste did not show within 30 s")
    await sleep(2)
  }
  tmux("send-keys", "-t", "main", "C-u")

  console.log(`terminal bench: ${tokenCount} tokens at ${msPerToken} ms each, 80 × 24 tmux window`)
  console.log(`  bytes written while streaming      ${bytes} (the answer's own ${tokenBytes}): ratio ${(bytes / tokenBytes).toFixed(2)}`)
  console.log(`  bytes per token                    ${(bytes / tokenCount).toFixed(1)} (a token is ${(tokenBytes / tokenCount).toFixed(1)} bytes)`)
  console.log(`  cursor moves / erases              ${moves} in ${streamSeconds.toFixed(1)} s of streaming: ${(moves / streamSeconds).toFixed(0)} a second`)
  console.log(`  keystroke to echo while streaming  ${echoMs.toFixed(1)} ms (polling tmux's screen)`)
  console.log(`  CPU while streaming                ${(streamCpu * 100).toFixed(1)}% of a core`)
  console.log(`  CPU idle at the prompt (10 s)      ${(idleCpu * 100).toFixed(2)}% of a core`)
  console.log(`  time to paste 1 MB (bracketed)      ${pasteMs.toFixed(0)} ms until the prompt shows it (a placeholder; sent whole)`)
  console.log(`  time to a usable prompt            ${promptMs.toFixed(0)} ms (weft -p --version: ${versionMs.toFixed(0)} ms; ratio ${(promptMs / versionMs).toFixed(2)})`)
} finally {
  spawnSync("tmux", ["-L", socket, "kill-server"])
  await server.close()
  await rm(dir, { recursive: true, force: true })
}
