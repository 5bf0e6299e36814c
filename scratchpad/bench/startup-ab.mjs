// Two builds of weft side by side: this tree's binary (dist/bin/weft.cjs) against another one, in one run, counted
// under valgrind's callgrind in alternation (A, B, A, B...), for a 2-turn session that reads a file and one that runs
// a Bash command, and their wall times (peak RSS too) in alternation as well. Counts are medians; the main thread's
// is the figure to go by (every thread's moves with the machine's load, ±10-20 M a run); wall times are medians of
// 5x as many runs. Run after `npm run build`, with the other build made in its own checkout:
//   git worktree add /tmp/weft-base <commit> && (cd /tmp/weft-base && npm ci && npm run build)
//   node scratchpad/bench/startup-ab.mjs /tmp/weft-base/dist/bin/weft.cjs [runs=3]
// Both binaries talk to this tree's mock server, in the same project folder, without NODE_EXTRA_CA_CERTS.
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { binary, expectAnswer, instructions, makeProject, median, prompt, sessionEnv, startSession, timed, withoutExtraCerts } from "./session-common.mjs"

const other = process.argv[2] === undefined ? undefined : resolve(process.argv[2])
if (other === undefined || !existsSync(other)) {
  console.error("usage: node scratchpad/bench/startup-ab.mjs <other build's dist/bin/weft.cjs> [runs=3]")
  process.exit(1)
}
const runs = Number(process.argv[3] ?? 3)
const project = await makeProject("weft-bench-ab-")
const sessions = {
  Read: await startSession("Read", { file_path: project.notes }),
  Bash: await startSession("Bash", { command: "wc -l notes.txt | cat" })
}
const builds = { A: other, B: binary }
const results = {}
const wallResults = {}
for (const [kind, server] of Object.entries(sessions)) {
  const env = withoutExtraCerts(sessionEnv(server, project.dir))
  const options = { cwd: project.dir, env }
  // Each build answers once first (and so shows it works, and warms the disk cache).
  for (const build of Object.values(builds)) expectAnswer(await timed(["node", build, "-p", prompt], options), build)
  const counts = { A: [], B: [] }
  for (let i = 0; i < runs; i++) {
    for (const [name, build] of Object.entries(builds)) counts[name].push(await instructions(["node", build, "-p", prompt], options))
  }
  const walls = { A: [], B: [] }
  for (let i = 0; i < runs * 5; i++) {
    for (const [name, build] of Object.entries(builds)) walls[name].push(await timed(["node", build, "-p", prompt], { ...options, peakRss: true }))
  }
  results[kind] = counts
  wallResults[kind] = walls
}
for (const server of Object.values(sessions)) await server.close()
await project.remove()

const med = (runs, key) => median(runs.map((run) => run[key]))
console.log(`A: ${other}\nB: ${binary}\ninstructions (callgrind, M), medians of ${runs} alternating runs`)
console.log("| session | A main thread | B main thread | B/A | A all threads | B all threads | B/A |")
console.log("|---|---:|---:|---:|---:|---:|---:|")
for (const [kind, { A, B }] of Object.entries(results)) {
  const cells = ["main", "total"].flatMap((key) => [med(A, key).toFixed(0), med(B, key).toFixed(0), (med(B, key) / med(A, key)).toFixed(3)])
  console.log(`| ${kind} | ${cells.join(" | ")} |`)
}
console.log(`\nwall (ms) and peak RSS (MB), medians of ${runs * 5} alternating runs`)
console.log("| session | A wall | B wall | B/A | A RSS | B RSS |")
console.log("|---|---:|---:|---:|---:|---:|")
for (const [kind, { A, B }] of Object.entries(wallResults)) {
  const wall = (runs) => median(runs.map((run) => run.wall))
  const rss = (runs) => median(runs.map((run) => run.rss))
  console.log(`| ${kind} | ${wall(A).toFixed(0)} | ${wall(B).toFixed(0)} | ${(wall(B) / wall(A)).toFixed(3)} | ${rss(A).toFixed(0)} | ${rss(B).toFixed(0)} |`)
}
