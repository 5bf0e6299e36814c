// Subagents through the binary: the model calls the Agent tool N times in one turn (foreground, general-purpose),
// each child reads notes.txt with a tool call and answers; then the parent answers. Wall time and peak RSS of the
// whole `weft -p` run with ten children at once beside the same run with one (the baseline, in the same run), and with
// ten one after another (one per model turn: what running them side by side saves), medians.
// The mock answers every child from one script of its own (a child's first request has no assistant message).
// Run after `npm run build`:
//   node scratchpad/bench/subagents.mjs [runs=5] [children=10]
import { join } from "node:path"
import { answer, binary, makeProject, median, prompt, root, sessionEnv, timed, withoutExtraCerts } from "./session-common.mjs"

const runs = Number(process.argv[2] ?? 5)
const children = Number(process.argv[3] ?? 10)
const { startMockAnthropicServer, systemContains } = await import(join(root, "dist/lib/testing/MockAnthropicServer.js"))
const { ScriptTurn, text, textTurn, toolUse } = await import(join(root, "dist/lib/testing/Script.js"))

const project = await makeProject("weft-bench-subagents-")
const call = (i) => toolUse("Agent", { description: `count ${i}`, prompt: "How many lines has notes.txt?", run_in_background: false }, `agent_${i}`)
/** `count` children in one turn, or (`sequential`) one per turn. */
const serverFor = (count, sequential = false) =>
  startMockAnthropicServer({
    script: [
      ...(sequential
        ? Array.from({ length: count }, (_, i) => ScriptTurn.blocks([call(i)]))
        : [ScriptTurn.blocks(Array.from({ length: count }, (_, i) => call(i)))]),
      textTurn(answer)
    ],
    conversations: [
      {
        when: systemContains("You are an agent for a coding agent"),
        script: [ScriptTurn.blocks([text("Reading."), toolUse("Read", { file_path: project.notes }, "read")]), textTurn("200 lines.")]
      }
    ]
  })

const measure = async (count, sequential = false) => {
  const server = await serverFor(count, sequential)
  const options = { cwd: project.dir, env: withoutExtraCerts(sessionEnv(server, project.dir)), peakRss: true }
  const args = ["node", binary, "-p", prompt, "--no-session-persistence"]
  const first = await timed(args, options)
  if (first.stdout.trim() !== answer) throw new Error(`unexpected output: ${first.stdout}`)
  const samples = []
  for (let i = 0; i < runs; i++) samples.push(await timed(args, options))
  const childRequests = server.requests().filter((request) => JSON.stringify(request.body?.system ?? "").includes("You are an agent for a coding agent"))
  await server.close()
  return { wall: median(samples.map((s) => s.wall)), rss: median(samples.map((s) => s.rss)), childRequests: childRequests.length / (runs + 1) }
}

const one = await measure(1)
const many = await measure(children)
const serial = await measure(children, true)
await project.remove()
console.log(`1 subagent:   wall ${one.wall.toFixed(0)} ms, peak RSS ${one.rss.toFixed(1)} MB (${one.childRequests} child requests a run)`)
console.log(
  `${children} subagents one after another (one per turn): wall ${serial.wall.toFixed(0)} ms (${(serial.wall / one.wall).toFixed(2)}x), peak RSS ${serial.rss.toFixed(1)} MB\n` +
  `${children} subagents at once: wall ${many.wall.toFixed(0)} ms (${(many.wall / one.wall).toFixed(2)}x), peak RSS ${many.rss.toFixed(1)} MB (${(many.rss / one.rss).toFixed(2)}x) (${many.childRequests} child requests a run)`
)
