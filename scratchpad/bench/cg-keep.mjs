// One Read session under callgrind for each binary given, keeping the main thread's profile for callgrind_annotate:
//   node scratchpad/bench/cg-keep.mjs <outdir> <weft.cjs>...
import { spawn } from "node:child_process"
import { mkdir, readdir, rename } from "node:fs/promises"
import { join, resolve } from "node:path"
import { expectAnswer, makeProject, prompt, sessionEnv, startSession, timed, withoutExtraCerts } from "./session-common.mjs"

const [outDir, ...bins] = process.argv.slice(2)
await mkdir(outDir, { recursive: true })
const project = await makeProject("weft-bench-cg-")
const kind = process.env.KIND ?? "Read"
const server = await startSession(kind, kind === "Read" ? { file_path: project.notes } : { command: "wc -l notes.txt | cat" })
const env = withoutExtraCerts(sessionEnv(server, project.dir))
for (const [i, bin] of bins.entries()) {
  const args = ["node", resolve(bin), "-p", prompt]
  expectAnswer(await timed(args, { cwd: project.dir, env }), bin)
  const dir = join(outDir, `b${i}`)
  await mkdir(dir, { recursive: true })
  await new Promise((ok, fail) => {
    const child = spawn("valgrind", ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${join(dir, "cg.%p")}`, ...args], { cwd: project.dir, env, stdio: "ignore" })
    child.on("close", (code) => (code === 0 ? ok() : fail(new Error(`exit ${code}`))))
  })
  const main = (await readdir(dir)).find((name) => name.endsWith("-01"))
  await rename(join(dir, main), join(outDir, `main${i}.cg`))
}
await server.close()
await project.remove()
