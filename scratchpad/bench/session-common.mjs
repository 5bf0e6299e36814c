// What the session benches (session.mjs, session-bash.mjs) share: the built binary and mock server, a project
// folder with a 200-line notes file, the scripted sessions, the timed and the counted (callgrind) runs, medians.
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
export const binary = join(root, "dist/bin/weft.cjs")
export const floor = join(root, "scratchpad/bench/session-floor.cjs")
export const prompt = "How many lines do the notes have?"
export const answer = "The notes have 200 lines."

if (!existsSync(binary) || !existsSync(join(root, "dist/lib/testing/MockAnthropicServer.js"))) {
  console.error("run `npm run build` first")
  process.exit(1)
}
const { startMockAnthropicServer } = await import(join(root, "dist/lib/testing/MockAnthropicServer.js"))
const { ScriptTurn, text, textTurn, toolUse } = await import(join(root, "dist/lib/testing/Script.js"))

/** The bench's arguments: `[runs] [--instructions]`. */
export const benchArguments = (defaultRuns) => {
  const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? defaultRuns)
  const countInstructions = process.argv.includes("--instructions")
  if (countInstructions && spawnSync("valgrind", ["--version"]).status !== 0) {
    console.error("--instructions needs valgrind (Debian package valgrind)")
    process.exit(1)
  }
  return { runs, countInstructions }
}

/** A project folder holding notes.txt (200 lines); `remove` deletes it. */
export const makeProject = async (prefix) => {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  await writeFile(join(dir, "notes.txt"), Array.from({ length: 200 }, (_, i) => `line ${i + 1} of the notes`).join("\n"))
  return { dir, notes: join(dir, "notes.txt"), remove: () => rm(dir, { recursive: true, force: true }) }
}

/** A mock Messages API whose model runs one tool call (`tool` with `input`) and then answers `answer`. */
export const startSession = (tool, input) =>
  startMockAnthropicServer({
    script: [ScriptTurn.blocks([text("Working on it."), toolUse(tool, input, "t1")]), textTurn(answer)]
  })

/** The environment of a weft run against `server`, its home inside `dir`. */
export const sessionEnv = (server, dir) => ({
  ...process.env,
  ANTHROPIC_BASE_URL: server.url,
  ANTHROPIC_API_KEY: "bench",
  WEFT_HOME: join(dir, "home")
})

/**
 * NODE_EXTRA_CA_CERTS makes every Node.js process parse those certificates before any script runs (see session.mjs):
 * `env` without it.
 */
export const withoutExtraCerts = (env) => {
  const { NODE_EXTRA_CA_CERTS: _dropped, ...rest } = env
  return rest
}

/**
 * Runs `args` in `cwd` and resolves its wall time (ms) and stdout; rejects when it fails. With `peakRss`, runs it under
 * /usr/bin/time and adds the peak RSS (MB). Asynchronous on purpose: the mock servers live in this process, so its
 * event loop must keep running. stdin is /dev/null, as for a script that gives the prompt as an argument.
 */
export const timed = (args, { cwd, env, peakRss = false }) =>
  new Promise((resolveRun, reject) => {
    const started = process.hrtime.bigint()
    const command = peakRss ? ["/usr/bin/time", "-f", "%e %M", ...args] : args
    const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk))
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${args.join(" ")} failed: ${stdout} ${stderr}`))
      const wall = Number(process.hrtime.bigint() - started) / 1e6
      const rss = peakRss ? Number(stderr.trim().split("\n").at(-1).split(" ")[1]) / 1024 : undefined
      resolveRun({ wall, rss, stdout })
    })
  })

/** Counts the instructions (millions) of `args` under callgrind: every thread's, no waiting. */
/**
 * Instructions of one run under valgrind's callgrind, in millions: `total`, every thread's (V8's background compiler
 * and GC threads included: their share moves with the machine's load, ±10-20 M a run here), and `main`, the main
 * thread's alone (steadier: the figure to compare builds by).
 */
export const instructions = async (args, { cwd, env }) => {
  const out = await mkdtemp(join(tmpdir(), "weft-bench-cg-"))
  try {
    const stderr = await new Promise((resolveRun, reject) => {
      const child = spawn("valgrind", ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${join(out, "cg.%p")}`, ...args], {
        cwd,
        env,
        stdio: ["ignore", "pipe", "pipe"]
      })
      let text = ""
      child.stderr.setEncoding("utf8").on("data", (chunk) => (text += chunk))
      child.on("close", (code) => (code === 0 ? resolveRun(text) : reject(new Error(`${args.join(" ")} under callgrind failed: ${text}`))))
    })
    const collected = /Collected : (\d+)/.exec(stderr)
    // The first thread's file (`cg.<pid>-01`) is the main thread's.
    const mainFile = (await readdir(out)).find((name) => name.endsWith("-01"))
    const summary = mainFile === undefined ? null : /^summary: (\d+)$/m.exec(await readFile(join(out, mainFile), "utf8"))
    if (collected === null || summary === null) throw new Error(`no counts from callgrind for ${args.join(" ")}: ${stderr}`)
    return { total: Number(collected[1]) / 1e6, main: Number(summary[1]) / 1e6 }
  } finally {
    await rm(out, { recursive: true, force: true })
  }
}

/** `instructions` of `times` runs: the median of each count. */
export const medianInstructions = async (times, args, options) => {
  const runs = []
  for (let i = 0; i < times; i++) runs.push(await instructions(args, options))
  return { total: median(runs.map((run) => run.total)), main: median(runs.map((run) => run.main)) }
}

/** `total M (main thread main M)`. */
export const showInstructions = ({ total, main }) => `${total.toFixed(0)} M (main thread ${main.toFixed(0)} M)`

export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(q * (sorted.length - 1))]
}
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** Fails the bench when a run did not answer as scripted. */
export const expectAnswer = (run, what) => {
  if (run.stdout.trim() !== answer) throw new Error(`unexpected output from ${what}: ${run.stdout}`)
  return run
}
