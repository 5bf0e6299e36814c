// A long session: N scripted turns (default 500), each a small tool call (Read and Glob in turn), then an answer,
// through the built binary (`weft -p --output-format stream-json --verbose`) against MockAnthropicServer with its
// prompt cache on. Run after `npm run build`:
//   node scratchpad/bench/long-session.mjs [turns=500] [--series]
//
// weft's own work for turn k is what happens between the mock's response k and request k+1: reading and folding
// the response, printing it, recording it, running the tool, building, serializing and sending the next request.
// Two measures of it:
//   - CPU: weft's CPU time (every thread of the process, /proc/<pid>/task/*/schedstat, in ns) between the
//     arrivals of requests k and k+1. weft is idle while the mock works, so this is weft's work alone, and other
//     load on the machine barely moves it: the figure to trust.
//   - net wall: the arrival of request k+1 minus the end of response k (the mock timestamps both).
// The request grows with the conversation, so the table gives its size too, and the CPU per KB of request.
// Figures are medians over 10 turns around each mark. Peak RSS from /usr/bin/time (%M); RSS at the marks from
// /proc/<pid>/status. --series prints every turn (turn, CPU ms, net wall ms, request bytes).
// Targets: turn 500's work at most 1.3x turn 10's net of request size, peak RSS below 150 MB.
//
// BENCH_NODE_ARGS adds node options for weft (--cpu-prof, --trace-gc, ...); what node prints on stdout and weft's
// stderr go to the file BENCH_STDERR names.
import { spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const binary = join(root, "dist/bin/weft.cjs")
if (!existsSync(binary) || !existsSync(join(root, "dist/lib/testing/MockAnthropicServer.js"))) {
  console.error("run `npm run build` first")
  process.exit(1)
}
if (!existsSync("/usr/bin/time")) {
  console.error("needs /usr/bin/time (Debian package `time`) for peak RSS")
  process.exit(1)
}
const { startMockAnthropicServer } = await import(join(root, "dist/lib/testing/MockAnthropicServer.js"))
const { ScriptTurn, text, textTurn, toolUse } = await import(join(root, "dist/lib/testing/Script.js"))

const turns = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 500)
const dir = await mkdtemp(join(tmpdir(), "weft-long-session-"))
const project = join(dir, "project")
await mkdir(join(project, "src"), { recursive: true })
for (let i = 0; i < 8; i++) {
  await writeFile(join(project, "src", `file${i}.ts`), Array.from({ length: 12 }, (_, line) => `export const v${i}_${line} = ${line}`).join("\n"))
}

// /proc readings of weft (the child of /usr/bin/time).
let weftPid
const findWeft = (timePid) => {
  if (weftPid !== undefined) return weftPid
  try {
    const children = readFileSync(`/proc/${timePid}/task/${timePid}/children`, "utf8").trim()
    if (children !== "") weftPid = Number(children.split(" ")[0])
  } catch {}
  return weftPid
}
const cpuNs = (pid) => {
  let total = 0
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
      } catch {}
    }
  } catch {}
  return total
}
const rssMB = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024
  } catch {
    return undefined
  }
}

const marks = [10, 100, 500].filter((mark) => mark <= turns)
// By request index: weft's CPU time when it arrived, and weft's RSS at the marks.
const cpuAt = []
const rssAt = new Map()
let timePid
const script = [
  ...Array.from({ length: turns }, (_, index) =>
    index % 2 === 0
      ? ScriptTurn.blocks([text(`Step ${index + 1}: reading.`), toolUse("Read", { file_path: join(project, "src", `file${index % 8}.ts`) })])
      : ScriptTurn.blocks([toolUse("Glob", { pattern: "src/*.ts" })])
  ),
  textTurn("All done.")
]
const server = await startMockAnthropicServer({
  script,
  promptCache: true,
  // Called as each request arrives: the moment to read weft's CPU time. The turn is the default one (the number
  // of assistant messages in the conversation).
  pick: (request) => {
    const pid = findWeft(timePid)
    if (pid !== undefined) {
      cpuAt[request.index] = cpuNs(pid)
      if (marks.includes(request.index)) rssAt.set(request.index, rssMB(pid))
    }
    return request.body.messages.filter((message) => message.role === "assistant").length
  }
})
const env = {
  ...process.env,
  ANTHROPIC_BASE_URL: server.url,
  ANTHROPIC_API_KEY: "sk-ant-api03-long-session-bench-key",
  WEFT_HOME: join(dir, "home")
}

const started = performance.now()
const outcome = await new Promise((resolveRun, reject) => {
  const args = [
    process.execPath,
    ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
    binary,
    ...["-p", "Walk the project.", "--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5"]
  ]
  const child = spawn("/usr/bin/time", ["-f", "%M", ...args], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] })
  timePid = child.pid
  let frames = 0
  let last = ""
  let pending = ""
  const diagnostics = []
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    pending += chunk
    const lines = pending.split("\n")
    pending = lines.pop() ?? ""
    for (const line of lines) {
      if (line === "") continue
      if (!line.startsWith("{")) diagnostics.push(line)
      else {
        frames++
        last = line
      }
    }
  })
  let stderr = ""
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk))
  child.on("close", (code) => {
    if (process.env.BENCH_STDERR) writeFileSync(process.env.BENCH_STDERR, `${diagnostics.join("\n")}\n${stderr}`)
    if (code !== 0) return reject(new Error(`weft failed (${code}): ${stderr.slice(-2000)}`))
    resolveRun({ frames, result: JSON.parse(last), peakKb: Number(stderr.trim().split("\n").at(-1)) })
  })
})
const wallMs = performance.now() - started

const requests = server.requests().filter((request) => request.path.startsWith("/v1/messages"))
if (requests.length !== turns + 1) throw new Error(`expected ${turns + 1} requests, the mock saw ${requests.length}`)
if (outcome.result.subtype !== "success" || outcome.result.num_turns !== turns + 1) {
  throw new Error(`unexpected result: ${JSON.stringify(outcome.result).slice(0, 500)}`)
}
const closed = await Promise.all(requests.map((request) => server.closed(request.index)))
await server.close()
await rm(dir, { recursive: true, force: true })

// Turn k (1-based): from response k to request k+1.
const cpuMs = (k) => (cpuAt[k] - cpuAt[k - 1]) / 1e6
const netMs = (k) => requests[k].arrivedAt - closed[k - 1].finishedAt
const mockMs = (k) => closed[k - 1].finishedAt - requests[k - 1].arrivedAt
const kilobytes = (k) => requests[k].bodyBytes / 1024
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
const around = (mark, f) => {
  const from = Math.max(2, mark - 5)
  const to = Math.min(turns, from + 9)
  return median(Array.from({ length: to - from + 1 }, (_, i) => f(from + i)))
}
if (process.argv.includes("--series")) {
  for (let k = 1; k <= turns; k++) console.log(`${k}\t${cpuMs(k).toFixed(3)}\t${netMs(k).toFixed(2)}\t${requests[k].bodyBytes}`)
}
const rows = marks.map((mark) => {
  const cpu = around(mark, cpuMs)
  const size = around(mark, kilobytes)
  return { turn: mark, cpu, net: around(mark, netMs), size, perKB: (cpu * 1000) / size, mock: around(mark, mockMs), rss: rssAt.get(mark) }
})
const first = rows[0]
const last = rows[rows.length - 1]
// "Net of request size": the CPU that grows with the request (serializing it, writing it) is estimated by a
// least-squares line through every turn's CPU against its request size; what is left of turn N's work beside turn
// 10's once that line's slope times the growth is taken out must stay flat.
const points = Array.from({ length: turns - 1 }, (_, i) => [kilobytes(i + 2), cpuMs(i + 2)])
const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length
const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length
const slope =
  points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0) / points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0)
const fixed = (row) => row.cpu - slope * (row.size - first.size)

console.log(`weft -p, ${turns} tool turns + an answer (stream-json, mock prompt cache on): ${(wallMs / 1000).toFixed(1)} s wall, ${outcome.frames} frames`)
console.log("| turn | weft CPU | net wall | request  | CPU per KB | mock's time | RSS      |")
console.log("|-----:|---------:|---------:|---------:|-----------:|------------:|---------:|")
for (const row of rows) {
  console.log(
    `| ${String(row.turn).padStart(4)} | ${row.cpu.toFixed(2).padStart(5)} ms | ${row.net.toFixed(2).padStart(5)} ms | ${row.size.toFixed(0).padStart(5)} KB | ${row.perKB.toFixed(1).padStart(7)} µs | ${row.mock.toFixed(2).padStart(8)} ms | ${row.rss === undefined ? "    -   " : `${row.rss.toFixed(1).padStart(5)} MB`} |`
  )
}
console.log(
  `turn ${last.turn} / turn ${first.turn}: CPU ${(last.cpu / first.cpu).toFixed(2)}x for a ${(last.size / first.size).toFixed(1)}x request; ` +
    `CPU per KB of request ${(slope * 1000).toFixed(1)} µs (fit over all turns), net of it ${(fixed(last) / first.cpu).toFixed(2)}x (target <= 1.3)`
)
console.log(`peak RSS ${(outcome.peakKb / 1024).toFixed(1)} MB (target < 150)`)
const usage = outcome.result.usage
console.log(
  `cost $${outcome.result.total_cost_usd.toFixed(4)}: input ${usage.input_tokens}, cache reads ${usage.cache_read_input_tokens}, cache writes ${usage.cache_creation_input_tokens}, output ${usage.output_tokens} tokens`
)
