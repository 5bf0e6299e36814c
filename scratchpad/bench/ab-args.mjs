// Like startup-ab.mjs, for any number of node command lines (each a comma-separated list of node's arguments up to
// and including the binary; the first is the baseline of the ratios), the Read session only unless KIND=Bash:
//   node scratchpad/bench/ab-args.mjs 5 /tmp/weft-base/dist/bin/weft.cjs dist/bin/weft.cjs
// A V8 flag given to node changes the hash V8 stamps caches with: the shipped code cache is refused and the run
// writes (and the next reads) a user cache in the project's WEFT_HOME, trained on this session, not the demo; two
// lines with different flags in one run keep replacing each other's.
import { resolve } from "node:path"
import { expectAnswer, instructions, makeProject, median, prompt, sessionEnv, startSession, timed, withoutExtraCerts } from "./session-common.mjs"

const runs = Number(process.argv[2] ?? 3)
const lines = process.argv.slice(3).map((line) => line.split(",").map((arg, i, all) => (i === all.length - 1 ? resolve(arg) : arg)))
const project = await makeProject("weft-bench-ab-")
const kind = process.env.KIND ?? "Read"
const server = await startSession(kind, kind === "Read" ? { file_path: project.notes } : { command: "wc -l notes.txt | cat" })
const options = { cwd: project.dir, env: withoutExtraCerts(sessionEnv(server, project.dir)) }
for (const line of lines) expectAnswer(await timed(["node", ...line, "-p", prompt], options), line.join(" "))
const counts = lines.map(() => [])
for (let i = 0; i < runs; i++) for (const [j, line] of lines.entries()) counts[j].push(await instructions(["node", ...line, "-p", prompt], options))
await server.close()
await project.remove()
for (const [j, line] of lines.entries()) {
  const main = median(counts[j].map((c) => c.main))
  const total = median(counts[j].map((c) => c.total))
  const base = median(counts[0].map((c) => c.main))
  console.log(`${kind} main ${main.toFixed(1)} M (${(main / base).toFixed(3)}) all ${total.toFixed(1)} M  ${line.join(" ")}`)
}
