// A 2-turn scripted session (Read, then answer) timed as a whole `weft -p` process, beside `node -e 0`, in one
// run: medians of interleaved runs, wall time and peak RSS (from /usr/bin/time). Run after `npm run build`:
//   node scratchpad/bench/session.mjs [runs=11] [--instructions]
// --instructions also counts each command's instructions under valgrind's callgrind (Debian package valgrind),
// three times each (medians), without NODE_EXTRA_CA_CERTS: figures that do not move with the machine's speed. The
// count of every thread (V8's background compiler and GC included) still moves with its load, by ±10-20 M a run; the
// main thread's, shown beside it, is the steadier one to compare builds by (scratchpad/bench/startup-ab.mjs).
// Targets (issue 3): weft's wall at most 2.5x `node -e 0`, peak RSS at most 90 MB.
//
// Beside them, the same session as bare node:http code (session-floor.cjs): what any process doing this I/O costs.
//
// NODE_EXTRA_CA_CERTS: when it is set (as on the machines of this workplace, to the system's whole CA bundle),
// every Node.js process parses those certificates at start, before any script runs: about 420 M instructions
// (callgrind), 50-90 ms here, which is most of what `node -e 0` costs. It weighs the same on both commands, so it
// pulls the ratio towards 1. The bench then runs every round twice, with the environment as it is and with that
// variable removed, and reports both: the second is what weft costs on a machine without it.
import { existsSync } from "node:fs"
import {
  benchArguments,
  binary,
  expectAnswer,
  floor,
  medianInstructions,
  showInstructions,
  makeProject,
  median,
  prompt,
  quantile,
  sessionEnv,
  startSession,
  timed,
  withoutExtraCerts
} from "./session-common.mjs"

if (!existsSync("/usr/bin/time")) {
  console.error("needs /usr/bin/time (Debian package `time`) for peak RSS")
  process.exit(1)
}
const { runs, countInstructions } = benchArguments(11)
const project = await makeProject("weft-bench-session-")
const dir = project.dir
const server = await startSession("Read", { file_path: project.notes })
const env = sessionEnv(server, dir)
const envWithoutExtraCerts = withoutExtraCerts(env)
const environments = [{ name: "environment as set", env }]
if (env.NODE_EXTRA_CA_CERTS !== undefined) environments.push({ name: "without NODE_EXTRA_CA_CERTS", env: envWithoutExtraCerts })
// Wall time is taken by the bench (/usr/bin/time's %e has 10 ms steps, coarse beside an 80 ms `node -e 0`), peak
// RSS from /usr/bin/time's %M; both commands pay the same /usr/bin/time and spawn overhead.
const run = (args, env) => timed(args, { cwd: dir, env, peakRss: true })

await run(["node", binary, "-p", "warm-up"], env) // the first run pays for the disk cache
for (const environment of environments) Object.assign(environment, { baseline: [], weft: [], floor: [] })
for (let i = 0; i < runs; i++) {
  for (const environment of environments) {
    environment.baseline.push(await run(["node", "-e", "0"], environment.env))
    environment.weft.push(expectAnswer(await run(["node", binary, "-p", prompt], environment.env), "weft"))
    environment.floor.push(expectAnswer(await run(["node", floor, prompt], environment.env), "the floor"))
  }
}
const count = (args) => medianInstructions(3, args, { cwd: dir, env: envWithoutExtraCerts })
const counted = countInstructions
  ? {
      baseline: await count(["node", "-e", "0"]),
      weft: await count(["node", binary, "-p", prompt]),
      floor: await count(["node", floor, prompt])
    }
  : undefined

await server.close()
await project.remove()

const row = (name, samples) =>
  `| ${name.padEnd(28)} | ${median(samples.map((s) => s.wall)).toFixed(0).padStart(7)} ms | ${median(samples.map((s) => s.rss)).toFixed(1).padStart(7)} MB |`
for (const { name, baseline, weft, floor: bare } of environments) {
  console.log(`\nweft -p, 2-turn session (Read + answer), ${name}: medians of ${runs} interleaved runs`)
  console.log("| command                      |    wall    |  peak RSS  |")
  console.log("|------------------------------|------------|------------|")
  console.log(row("node -e 0", baseline))
  console.log(row("weft -p (2 turns, Read)", weft))
  console.log(row("bare node:http session", bare))
  const ratio = median(weft.map((s) => s.wall)) / median(baseline.map((s) => s.wall))
  console.log(`wall ratio weft / node -e 0: ${ratio.toFixed(2)} (target <= 2.5); weft peak RSS ${median(weft.map((s) => s.rss)).toFixed(1)} MB (target <= 90)`)
  // Each round runs the two commands back to back, so their ratio is less exposed to the machine's speed drifting
  // over the run than the ratio of the two medians.
  const rounds = weft.map((run, i) => run.wall / baseline[i].wall)
  console.log(`per-round ratio: median ${median(rounds).toFixed(2)}, p25 ${quantile(rounds, 0.25).toFixed(2)}, p75 ${quantile(rounds, 0.75).toFixed(2)}`)
  const wall = (samples) => median(samples.map((s) => s.wall))
  console.log(
    `weft minus node -e 0: ${(wall(weft) - wall(baseline)).toFixed(0)} ms; the bare session: ${(wall(bare) / wall(baseline)).toFixed(2)}x node -e 0, ${(wall(bare) - wall(baseline)).toFixed(0)} ms more`
  )
}
if (counted !== undefined) {
  console.log("\ninstructions (callgrind, without NODE_EXTRA_CA_CERTS, medians of 3 runs each)")
  console.log(
    `node -e 0 ${showInstructions(counted.baseline)}; weft -p ${showInstructions(counted.weft)} (${(counted.weft.total / counted.baseline.total).toFixed(2)}x); ` +
      `bare node:http session ${showInstructions(counted.floor)} (${(counted.floor.total / counted.baseline.total).toFixed(2)}x)`
  )
}
