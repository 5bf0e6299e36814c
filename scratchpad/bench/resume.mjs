// Resuming a big session: SessionStore.resume (the file streamed, folded from its last compact boundary) against
// the old load path (the whole file read as one string, parsed, then folded), each run in its own process so
// that its peak RSS is its own. Also `list` on the same file (the streaming summary against parsing it whole).
//
//   npm run build:lib && node scratchpad/bench/resume.mjs [megabytes=40] [runs=5]
//
// Two transcripts are generated (in a temp dir, removed at the end): "flat", one conversation of <megabytes> of
// tool calls with bulky results, and "compacted", the same size with three compact boundaries (the resumed
// conversation is the part after the last one). "conversation" below is the size of the resumed history as JSON:
// what the next request must hold anyway. "grown" is peak RSS less the process's RSS before the operation (node and
// the library take ~80 MB before reading anything); "heap held" is the heap still used after a full GC, the result
// held: what the operation keeps, as opposed to the garbage it made on the way. `list`, which keeps nothing, shows
// what reading costs whatever is kept (~25 MB here: the young generation grown to its working size, the schemas).
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const lib = path.join(here, "..", "..", "dist", "lib")
const CWD = "/bench/project"
const slug = CWD.replace(/[^a-zA-Z0-9]/g, "-")

// ---------------------------------------------------------------------------------------------------------
// Child: one measured operation, reporting JSON on stdout.

if (process.argv[2] === "--child") {
  const [, , , mode, home, sessionId] = process.argv
  const Effect = await import("effect/Effect")
  const { SessionStore } = await import(path.join(lib, "session", "SessionStore.js"))
  const { parseTranscript } = await import(path.join(lib, "domain", "Transcript.js"))
  const { fromEntries } = await import(path.join(lib, "session", "SessionState.js"))
  const file = path.join(home, "projects", slug, `${sessionId}.jsonl`)
  const run = (effect) => Effect.runPromise(Effect.scoped(Effect.provide(effect, SessionStore.layerNode({ home }))))
  global.gc?.()
  const baseline = process.memoryUsage().rss
  const heapAtStart = process.memoryUsage().heapUsed
  const started = performance.now()
  const cpuAtStart = process.cpuUsage()
  let turns = 0
  let kept // what the operation returns, held until the heap is measured
  if (mode === "resume") {
    const resumed = await run(Effect.flatMap(SessionStore, (store) => store.resume(sessionId)))
    kept = resumed
    turns = resumed.turns
  } else if (mode === "old-load") {
    // The old path: readFileString, parseTranscript, fold.
    const text = await run(Effect.sync(() => fs.readFileSync(file, "utf8")))
    const state = fromEntries(parseTranscript(text).entries)
    kept = state
    turns = state.turns
  } else if (mode === "list") {
    // `list` summarises every session of the folder (both transcripts): the figures are for the two.
    const infos = await run(Effect.flatMap(SessionStore, (store) => store.list(CWD)))
    turns = infos.find((info) => info.sessionId === sessionId).turns
  } else if (mode === "old-list") {
    for (const name of fs.readdirSync(path.dirname(file))) {
      const { entries } = parseTranscript(fs.readFileSync(path.join(path.dirname(file), name), "utf8"))
      if (name === `${sessionId}.jsonl`) turns = fromEntries(entries).turns
    }
  }
  const ms = performance.now() - started
  const cpu = process.cpuUsage(cpuAtStart)
  const peak = process.resourceUsage().maxRSS * 1024
  // Measured after the peak is read: the JSON text of the conversation is itself as large as the conversation, and
  // making it first would count it in the operation's peak.
  const conversation = kept === undefined ? 0 : JSON.stringify(kept.messages).length
  // What stays on the heap once the garbage is collected, the result held: the resumed conversation itself.
  global.gc?.()
  const held = process.memoryUsage().heapUsed - heapAtStart
  if (kept === null) console.log("unreachable")
  process.stdout.write(
    JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, baseline, peak, held, conversation, turns }) + "\n"
  )
  process.exit(0)
}

// ---------------------------------------------------------------------------------------------------------
// Generating the transcripts

const megabytes = Number(process.argv[2] ?? 40)
const runs = Number(process.argv[3] ?? 5)
// RESUME_BENCH_HOME=<dir> keeps the transcripts there (for profiling); by default a temp dir, removed.
const keep = process.env.RESUME_BENCH_HOME
const home = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), "weft-resume-bench-"))
fs.mkdirSync(path.join(home, "projects", slug), { recursive: true })

// Code-like text, varied so nothing is suspiciously compressible or shared.
const codeLine = (i) =>
  `  const value${i} = compute(${i}, "${(i * 2654435761).toString(36)}") // step ${i % 97}: ${"x".repeat(i % 40)}`
const bulky = (seed, bytes) => {
  const out = []
  let size = 0
  for (let i = seed; size < bytes; i++) {
    const line = `${String(i - seed + 1).padStart(6)}\t${codeLine(i)}`
    out.push(line)
    size += line.length + 1
  }
  return out.join("\n")
}

const generate = (sessionId, boundaries) => {
  const file = path.join(home, "projects", slug, `${sessionId}.jsonl`)
  const fd = fs.openSync(file, "w")
  const target = megabytes * 1024 * 1024
  let written = 0
  let parent = null
  let n = 0
  const write = (entry) => {
    const uuid = `${sessionId}-${n++}`
    const line =
      JSON.stringify({
        uuid,
        parentUuid: parent,
        timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
        sessionId,
        cwd: CWD,
        version: "0.1.0",
        ...entry
      }) + "\n"
    fs.writeSync(fd, line)
    written += line.length
    parent = uuid
    return uuid
  }
  const nextBoundaryAt = (k) => (boundaries === 0 ? Infinity : (target * k) / (boundaries + 1))
  let boundary = 1
  let turn = 0
  write({ type: "user", message: { role: "user", content: "Refactor the compute module and run the tests." } })
  while (written < target) {
    if (written >= nextBoundaryAt(boundary)) {
      const leaf = parent
      parent = null
      write({
        type: "system",
        subtype: "compact_boundary",
        content: "Conversation compacted",
        logicalParentUuid: leaf,
        compactMetadata: { trigger: "auto", preTokens: 150_000 }
      })
      write({
        type: "user",
        isCompactSummary: true,
        message: { role: "user", content: `Summary of the work so far (part ${boundary}): ${bulky(boundary, 4000)}` }
      })
      boundary++
    }
    turn++
    const id = `toolu_${turn}`
    const tool = turn % 3 === 0 ? "Bash" : "Read"
    const input = tool === "Read" ? { file_path: `/bench/project/src/module${turn}.ts` } : { command: `npm test -- --grep case${turn}` }
    write({
      type: "assistant",
      requestId: `req_${turn}`,
      costUSD: 0.0123,
      durationMs: 900,
      message: {
        id: `msg_${turn}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [
          { type: "text", text: `Looking at part ${turn} of the module before changing it.` },
          { type: "tool_use", id, name: tool, input }
        ],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 80, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 900 }
      }
    })
    // Results from 2 KB to 60 KB.
    const size = 2_000 + ((turn * 7919) % 58_000)
    write({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: bulky(turn * 100, size) }] },
      toolUseResult: { [id]: tool === "Read" ? { filePath: input.file_path, numLines: Math.round(size / 80) } : { exitCode: 0 } }
    })
  }
  write({
    type: "assistant",
    requestId: "req_last",
    costUSD: 0.01,
    message: {
      id: "msg_last",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "text", text: "All tests pass." }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 8 }
    }
  })
  fs.closeSync(fd)
  return { file, bytes: fs.statSync(file).size, turns: turn + 1 }
}

// ---------------------------------------------------------------------------------------------------------

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1)

const measure = (mode, sessionId) =>
  JSON.parse(
    execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--child", mode, home, sessionId], {
      encoding: "utf8",
      maxBuffer: 1 << 20
    })
  )

console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")} on ${os.cpus().length} cores (wall times stretch with it; cpu times less)`)
try {
  const transcripts = { flat: generate("flat", 0), compacted: generate("compacted", 3) }
  for (const [name, { bytes, turns }] of Object.entries(transcripts)) {
    console.log(`\n${name}: ${mb(bytes)} MB file, ${turns} turns; median of ${runs} runs, each in its own process`)
    const results = {}
    for (let i = 0; i < runs; i++) {
      // Interleaved, so a busy moment on the machine falls on both sides.
      for (const mode of ["resume", "old-load", "list", "old-list"]) (results[mode] ??= []).push(measure(mode, name))
    }
    const row = (mode) => {
      const r = results[mode]
      const ms = median(r.map((x) => x.ms))
      const cpuMs = median(r.map((x) => x.cpuMs))
      const peak = median(r.map((x) => x.peak))
      const grown = median(r.map((x) => x.peak - x.baseline))
      const held = median(r.map((x) => x.held))
      const conversation = r[0].conversation
      return { ms, cpuMs, peak, grown, held, conversation, turns: r[0].turns }
    }
    const table = Object.fromEntries(["resume", "old-load", "list", "old-list"].map((mode) => [mode, row(mode)]))
    for (const [mode, r] of Object.entries(table)) {
      console.log(
        `  ${mode.padEnd(9)} ${r.ms.toFixed(0).padStart(6)} ms (cpu ${r.cpuMs.toFixed(0).padStart(5)} ms)   peak RSS ${mb(r.peak).padStart(6)} MB` +
          `   grown ${mb(r.grown).padStart(6)} MB   heap held ${mb(r.held).padStart(5)} MB` +
          (r.conversation > 0 ? `   conversation ${mb(r.conversation)} MB (peak/conversation ${(r.peak / r.conversation).toFixed(2)}, grown/conversation ${(r.grown / r.conversation).toFixed(2)})` : "") +
          `   turns ${r.turns}`
      )
    }
    const ratio = (a, b) => (table[b][a] / table["resume"][a]).toFixed(2)
    console.log(
      `  old-load / resume: time ${ratio("ms", "old-load")}x, peak RSS ${ratio("peak", "old-load")}x, grown ${ratio("grown", "old-load")}x`
    )
    console.log(`  old-list / list (both files):   time ${(table["old-list"].ms / table.list.ms).toFixed(2)}x, peak RSS ${(table["old-list"].peak / table.list.peak).toFixed(2)}x`)
  }
} finally {
  if (keep === undefined) fs.rmSync(home, { recursive: true, force: true })
}
