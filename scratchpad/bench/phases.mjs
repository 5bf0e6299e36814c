// Where a 2-turn session's instructions go, phase by phase: runs the Read (or KIND=Bash) session under callgrind with
// `--dump-before=getppid` and prints the main thread's count (M) between consecutive marks, medians of `runs`.
//   node scratchpad/bench/phases.mjs <build>/dist/bin/weft.cjs [runs=3]
// Marks are not in weft's code: add them to a scratch copy of the tree and build it there. The launcher
// (src/cli/bin.ts) defines the mark function, before `const args`:
//   const marks: string[] = []
//   ;(globalThis as any).__mark = (name: string) => { marks.push(name); void process.ppid }
//   process.on("exit", () => process.stderr.write("MARKS " + marks.join(",") + "\n"))
//   ;(globalThis as any).__mark("launcher")
// and any code marks a point with `;(globalThis as any).__mark?.("name")` (process.ppid calls getppid, which
// nothing else calls; the leading `;` keeps the line from joining the one before). A row is the interval ending at
// its mark; `(end)` runs to exit. Garbage collection lands in varying intervals (a scavenge is 2-8 M): compare
// medians, and several intervals together. A mark inside a finalizer goes through `Scope.addFinalizer` directly
// (`Effect.addFinalizer` costs 1-2 M itself, see src/platform/Finalizer.ts).
import { spawn } from "node:child_process"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { makeProject, median, prompt, sessionEnv, startSession, timed, withoutExtraCerts } from "./session-common.mjs"

const [bin, runsArgument] = process.argv.slice(2)
if (bin === undefined) {
  console.error("usage: node scratchpad/bench/phases.mjs <build with marks>/dist/bin/weft.cjs [runs=3]")
  process.exit(1)
}
const runs = Number(runsArgument ?? 3)
const project = await makeProject("weft-bench-phases-")
const kind = process.env.KIND ?? "Read"
const server = await startSession(kind, kind === "Read" ? { file_path: project.notes } : { command: "wc -l notes.txt | cat" })
const env = withoutExtraCerts(sessionEnv(server, project.dir))
const args = ["node", resolve(bin), "-p", prompt]
await timed(args, { cwd: project.dir, env })
const counts = []
let names = []
for (let run = 0; run < runs; run++) {
  const out = await mkdtemp(join(tmpdir(), "weft-bench-phases-cg-"))
  try {
    const stderr = await new Promise((resolveRun, reject) => {
      const child = spawn(
        "valgrind",
        ["--tool=callgrind", "--separate-threads=yes", "--dump-before=getppid", "--compress-strings=no", `--callgrind-out-file=${join(out, "cg")}`, ...args],
        { cwd: project.dir, env, stdio: ["ignore", "pipe", "pipe"] }
      )
      let text = ""
      child.stderr.setEncoding("utf8").on("data", (chunk) => (text += chunk))
      child.on("close", (code) => (code === 0 ? resolveRun(text) : reject(new Error(text))))
    })
    const marks = /MARKS (.*)/.exec(stderr)
    if (marks === null) throw new Error("no marks: is this a build with the launcher's mark function?")
    names = [...marks[1].split(","), "(end)"]
    // cg.<n>-01: the main thread's count up to the n-th mark; cg-01: from the last mark to exit.
    const order = (name) => Number(/^cg\.(\d+)-01$/.exec(name)?.[1] ?? Number.POSITIVE_INFINITY)
    const files = (await readdir(out)).filter((name) => name.endsWith("-01")).sort((a, b) => order(a) - order(b))
    const run = []
    for (const file of files) run.push(Number(/^(?:summary|totals): (\d+)$/m.exec(await readFile(join(out, file), "utf8"))[1]) / 1e6)
    counts.push(run)
  } finally {
    await rm(out, { recursive: true, force: true })
  }
}
await server.close()
await project.remove()
let total = 0
for (const [index, name] of names.entries()) {
  const count = median(counts.map((run) => run[index] ?? 0))
  total += count
  console.log(`${count.toFixed(1).padStart(7)}  -> ${name}`)
}
console.log(`${total.toFixed(1).padStart(7)}  total`)
