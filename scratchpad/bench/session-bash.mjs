// A session whose turn runs one Bash command, beside the same session with Read instead: what the first Bash call
// costs a `weft -p` run (the Bash parser's load and the check, and the shell itself). Run after `npm run build`:
//   node scratchpad/bench/session-bash.mjs [runs=9] [--instructions]
// --instructions also counts each session's instructions under callgrind (valgrind), three times each (medians; the
// main thread's count beside every thread's, see session.mjs), without NODE_EXTRA_CA_CERTS: figures that do not move
// with the machine's speed. The parser alone is timed by scratchpad/bench/shell-parse.mjs.
import {
  benchArguments,
  binary,
  expectAnswer,
  medianInstructions,
  showInstructions,
  makeProject,
  median,
  prompt,
  sessionEnv,
  startSession,
  timed,
  withoutExtraCerts
} from "./session-common.mjs"

const { runs, countInstructions } = benchArguments(9)
const project = await makeProject("weft-bench-session-bash-")
const dir = project.dir
const sessions = {
  read: await startSession("Read", { file_path: project.notes }),
  bash: await startSession("Bash", { command: "wc -l notes.txt | cat" })
}
const envFor = (server) => withoutExtraCerts(sessionEnv(server, dir))

const weft = (kind) => timed(["node", binary, "-p", prompt], { cwd: dir, env: envFor(sessions[kind]) })
await weft("bash") // the first run pays for the disk cache
const walls = { baseline: [], read: [], bash: [] }
for (let i = 0; i < runs; i++) {
  walls.baseline.push((await timed(["node", "-e", "0"], { cwd: dir, env: envFor(sessions.read) })).wall)
  for (const kind of ["read", "bash"]) walls[kind].push(expectAnswer(await weft(kind), `the ${kind} session`).wall)
}
const counted = countInstructions
  ? {
      baseline: await medianInstructions(3, ["node", "-e", "0"], { cwd: dir, env: envFor(sessions.read) }),
      read: await medianInstructions(3, ["node", binary, "-p", prompt], { cwd: dir, env: envFor(sessions.read) }),
      bash: await medianInstructions(3, ["node", binary, "-p", prompt], { cwd: dir, env: envFor(sessions.bash) })
    }
  : undefined
for (const server of Object.values(sessions)) await server.close()
await project.remove()

console.log(`weft -p, 2-turn sessions, without NODE_EXTRA_CA_CERTS: medians of ${runs} interleaved runs (wall)`)
console.log(`node -e 0                         ${median(walls.baseline).toFixed(0).padStart(5)} ms`)
console.log(`weft -p, Read then answer         ${median(walls.read).toFixed(0).padStart(5)} ms`)
console.log(`weft -p, Bash (wc -l | cat), answer ${median(walls.bash).toFixed(0).padStart(3)} ms  (${(median(walls.bash) - median(walls.read)).toFixed(0)} ms more than Read)`)
if (counted !== undefined) {
  console.log("instructions (callgrind, medians of 3 runs each)")
  console.log(
    `node -e 0 ${showInstructions(counted.baseline)}; Read session ${showInstructions(counted.read)}; Bash session ${showInstructions(counted.bash)} ` +
      `(${(counted.bash.total - counted.read.total).toFixed(0)} M more)`
  )
}
