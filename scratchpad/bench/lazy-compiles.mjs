// Which functions a cached `weft -p` run still compiles lazily (parse + bytecode), grouped by script: Node.js's own
// built-in modules (node:*), the launcher (weft.cjs) and the bundle (weft-app.cjs). Run after `npm run build`:
//   node scratchpad/bench/lazy-compiles.mjs [read|bash] [top=25]
// V8's --log-function-events logs a `function,interpreter` event per lazy compile. The flag changes V8's flag hash,
// so the shipped cache would be rejected under it: this copies dist/bin to a temporary folder, retrains the cache
// there with `weft demo` as the build does, under the same flags (its launcher re-executes itself with them, so the
// demo's print run gets them too), checks that a run accepts it (it writes no user cache), and logs one session.
import { spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expectAnswer, makeProject, prompt, root, sessionEnv, startSession, timed, withoutExtraCerts } from "./session-common.mjs"

const kind = process.argv[2] ?? "read"
const top = Number(process.argv[3] ?? 25)
const work = mkdtempSync(join(tmpdir(), "weft-lazy-compiles-"))
const bin = join(work, "bin")
const logs = join(work, "logs")
cpSync(join(root, "dist/bin"), bin, { recursive: true })
const cache = readdirSync(bin).find((name) => name.endsWith(".codecache"))
rmSync(join(bin, cache))
const flags = `--log-function-events --logfile=${logs}/%p.log --no-logfile-per-isolate`
const launcher = join(bin, "weft.cjs")
const source = readFileSync(launcher, "utf8")
const firstLine = source.indexOf("\n") + 1
writeFileSync(
  launcher,
  source.slice(0, firstLine) +
    `if (!process.execArgv.includes("--log-function-events")) { const r = require("node:child_process").spawnSync(process.execPath, [...${JSON.stringify(flags.split(" "))}, __filename, ...process.argv.slice(2)], { stdio: "inherit" }); process.exit(r.status ?? 1) }\n` +
    source.slice(firstLine)
)
mkdirSync(logs) // V8 writes the log to stdout when it cannot open the file
const train = spawnSync(process.execPath, [launcher, "demo"], { env: { ...process.env, WEFT_CODE_CACHE_TRAIN: join(bin, cache) }, encoding: "utf8" })
if (train.status !== 0 || !existsSync(join(bin, cache))) throw new Error(`training failed: ${train.stderr.slice(-2000)}`)
for (const name of readdirSync(logs)) rmSync(join(logs, name))

const project = await makeProject("weft-lazy-compiles-project-")
const server = kind === "bash" ? await startSession("Bash", { command: "wc -l notes.txt | cat" }) : await startSession("Read", { file_path: project.notes })
const env = withoutExtraCerts(sessionEnv(server, project.dir))
expectAnswer(await timed(["node", launcher, "-p", prompt], { cwd: project.dir, env }), "weft")
const userCache = join(project.dir, "home/cache")
const rejected = existsSync(userCache) && readdirSync(userCache).some((name) => name.startsWith("weft-app."))
await server.close()
await project.remove()
if (rejected) throw new Error("the run rejected the cache trained under the same flags (it wrote a user cache)")

// The logs of the launcher's first process (which only re-executes) and of the run: the run's is the larger.
const log = readdirSync(logs).map((name) => readFileSync(join(logs, name), "utf8")).sort((a, b) => b.length - a.length)[0]
rmSync(work, { recursive: true, force: true })
const scripts = new Map()
const groups = new Map()
const bundle = []
for (const line of log.split("\n")) {
  const f = line.split(",")
  if (f[0] === "script-details") scripts.set(f[1], f[2] === "" ? `<script ${f[1]}>` : f[2])
  if (f[0] !== "function" || f[1] !== "interpreter") continue
  const script = scripts.get(f[2]) ?? `<script ${f[2]}>`
  const group = groups.get(script) ?? { count: 0, bytes: 0 }
  group.count += 1
  group.bytes += Number(f[4]) - Number(f[3])
  groups.set(script, group)
  if (script === "weft-app.cjs") bundle.push(`${f[7] || "(anonymous)"}@${f[3]}+${Number(f[4]) - Number(f[3])}`)
}
const sum = (filter) => [...groups].filter(([name]) => filter(name)).reduce((s, [, g]) => ({ count: s.count + g.count, bytes: s.bytes + g.bytes }), { count: 0, bytes: 0 })
const line = (name, g) => `${String(g.count).padStart(5)} functions ${String(g.bytes).padStart(8)} B of source  ${name}`
console.log(`lazy compiles of a cached ${kind} session (demo-trained cache):`)
console.log(line("Node.js built-ins (node:*)", sum((name) => name.startsWith("node:"))))
console.log(line("the bundle (weft-app.cjs)", sum((name) => name === "weft-app.cjs")))
console.log(line("other (the launcher, evals)", sum((name) => !name.startsWith("node:") && name !== "weft-app.cjs")))
console.log("top scripts:")
for (const [name, g] of [...groups].sort((a, b) => b[1].count - a[1].count).slice(0, top)) console.log(line(name, g))
if (bundle.length > 0) console.log(`bundle functions: ${bundle.join(" ")}`)
