// A session whose turn runs one Bash command, beside the same session with Read instead: what the first Bash call
// costs a `weft -p` run (the Bash parser's load and the check, and the shell itself). Run after `npm run build`:
//   node scratchpad/bench/session-bash.mjs [runs=9] [--instructions]
// --instructions also counts each session's instructions under callgrind (valgrind), once each, without
// NODE_EXTRA_CA_CERTS: a figure that does not move with the machine's load. The parser alone is timed by
// scratchpad/bench/shell-parse.mjs.
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const binary = join(root, "dist/bin/weft.cjs")
if (!existsSync(binary) || !existsSync(join(root, "dist/lib/testing/MockAnthropicServer.js"))) {
  console.error("run `npm run build` first")
  process.exit(1)
}
const { startMockAnthropicServer } = await import(join(root, "dist/lib/testing/MockAnthropicServer.js"))
const { ScriptTurn, text, textTurn, toolUse } = await import(join(root, "dist/lib/testing/Script.js"))

const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 9)
const countInstructions = process.argv.includes("--instructions")
if (countInstructions && spawnSync("valgrind", ["--version"]).status !== 0) {
  console.error("--instructions needs valgrind (Debian package valgrind)")
  process.exit(1)
}
const dir = await mkdtemp(join(tmpdir(), "weft-bench-session-bash-"))
await writeFile(join(dir, "notes.txt"), Array.from({ length: 200 }, (_, i) => `line ${i + 1} of the notes`).join("\n"))
const answer = "The notes have 200 lines."
const sessions = {
  read: await startMockAnthropicServer({
    script: [ScriptTurn.blocks([text("Reading."), toolUse("Read", { file_path: join(dir, "notes.txt") }, "r1")]), textTurn(answer)]
  }),
  bash: await startMockAnthropicServer({
    script: [ScriptTurn.blocks([text("Counting."), toolUse("Bash", { command: "wc -l notes.txt | cat" }, "b1")]), textTurn(answer)]
  })
}
const envFor = (server) => {
  const { NODE_EXTRA_CA_CERTS: _dropped, ...env } = { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "bench", WEFT_HOME: join(dir, "home") }
  return env
}

// Asynchronous on purpose: the mock servers live in this process, so its event loop must keep running.
const timed = (args, env) =>
  new Promise((resolveRun, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(args[0], args.slice(1), { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${args.join(" ")} failed: ${stdout} ${stderr}`))
      resolveRun({ wall: Number(process.hrtime.bigint() - started) / 1e6, stdout })
    })
  })
const instructions = (args, env) =>
  new Promise((resolveRun, reject) => {
    const child = spawn("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => {
      const match = /Collected : (\d+)/.exec(stderr)
      if (code !== 0 || match === null) return reject(new Error(`${args.join(" ")} under callgrind failed: ${stderr}`))
      resolveRun(Number(match[1]) / 1e6)
    })
  })
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const prompt = "How many lines do the notes have?"
const weft = (kind) => timed(["node", binary, "-p", prompt], envFor(sessions[kind]))
await weft("bash") // the first run pays for the disk cache
const walls = { baseline: [], read: [], bash: [] }
for (let i = 0; i < runs; i++) {
  walls.baseline.push((await timed(["node", "-e", "0"], envFor(sessions.read))).wall)
  for (const kind of ["read", "bash"]) {
    const run = await weft(kind)
    if (run.stdout.trim() !== answer) throw new Error(`unexpected output from the ${kind} session: ${run.stdout}`)
    walls[kind].push(run.wall)
  }
}
const counted = countInstructions
  ? {
      baseline: await instructions(["node", "-e", "0"], envFor(sessions.read)),
      read: await instructions(["node", binary, "-p", prompt], envFor(sessions.read)),
      bash: await instructions(["node", binary, "-p", prompt], envFor(sessions.bash))
    }
  : undefined
for (const server of Object.values(sessions)) await server.close()
await rm(dir, { recursive: true, force: true })

console.log(`weft -p, 2-turn sessions, without NODE_EXTRA_CA_CERTS: medians of ${runs} interleaved runs (wall)`)
console.log(`node -e 0                         ${median(walls.baseline).toFixed(0).padStart(5)} ms`)
console.log(`weft -p, Read then answer         ${median(walls.read).toFixed(0).padStart(5)} ms`)
console.log(`weft -p, Bash (wc -l | cat), answer ${median(walls.bash).toFixed(0).padStart(3)} ms  (${(median(walls.bash) - median(walls.read)).toFixed(0)} ms more than Read)`)
if (counted !== undefined) {
  console.log("instructions (callgrind, one run each)")
  console.log(`node -e 0 ${counted.baseline.toFixed(0)} M; Read session ${counted.read.toFixed(0)} M; Bash session ${counted.bash.toFixed(0)} M (${(counted.bash - counted.read).toFixed(0)} M more)`)
}
