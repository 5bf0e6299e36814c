// The overhead of one MCP tools/call through weft (the registry tool mcp__everything__echo, prepared and run to its
// outcome as the loop runs a call: McpTools -> McpClient -> the official client) against the same call made directly
// with the official client, both to server-everything over stdio. Rounds alternate between the two; the figures are
// medians of per-round means: wall time per call, and this process's CPU time per call (user + system; the server's
// own time is not in it), which stays readable when other work shares the cores.
// Run after `npm run build`:
//   node scratchpad/bench/mcp-call.mjs [rounds=20] [callsPerRound=100]
import { Client } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const Effect = await import("effect/Effect")
const Scope = await import("effect/Scope")
const Exit = await import("effect/Exit")
const { McpClient } = await import(join(root, "dist/lib/mcp/McpClient.js"))
const McpTools = await import(join(root, "dist/lib/mcp/McpTools.js"))
const Tool = await import(join(root, "dist/lib/tools/Tool.js"))

const [rounds = 20, perRound = 100] = process.argv.slice(2).map(Number)
const server = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")
const args = { message: "bench" }

const direct = new Client({ name: "bench", version: "0" })
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [server, "stdio"], stderr: "ignore" }))

const scope = Effect.runSync(Scope.make())
const mcp = await Effect.runPromise(
  Scope.provide(
    McpClient.make({
      servers: [{ name: "everything", scope: "dynamic", origin: "bench", config: { type: "stdio", command: process.execPath, args: [server, "stdio"], env: {} } }],
      cwd: root
    }),
    scope
  )
)
const tool = McpTools.make(mcp, { maxOutputTokens: await Effect.runPromise(McpTools.maxOutputTokens) })().find((candidate) => candidate.name === "mcp__everything__echo")
const context = { toolUseId: "t", sessionId: "s", cwd: root }
// As the loop runs a call (ToolExecution): prepared, then run to its outcome.
const viaWeft = Effect.flatMap(tool.prepare(args, context), (call) => Tool.outcome(call, tool.name))

const time = async (call) => {
  const cpu = process.cpuUsage()
  const start = process.hrtime.bigint()
  for (let i = 0; i < perRound; i++) await call()
  const used = process.cpuUsage(cpu)
  return { wall: Number(process.hrtime.bigint() - start) / 1e6 / perRound, cpu: (used.user + used.system) / 1e3 / perRound }
}
const weftCall = () => Effect.runPromise(viaWeft)
const directCall = () => direct.callTool({ name: "echo", arguments: args })
await time(weftCall)
await time(directCall)
const weft = []
const lib = []
for (let round = 0; round < rounds; round++) {
  weft.push(await time(weftCall))
  lib.push(await time(directCall))
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const figure = (key) => {
  const overhead = weft.map((value, index) => value[key] - lib[index][key])
  return `directly ${median(lib.map((v) => v[key])).toFixed(3)} ms, through weft ${median(weft.map((v) => v[key])).toFixed(3)} ms, overhead ${median(overhead).toFixed(3)} ms`
}
console.log(`tools/call echo over stdio, ${rounds} rounds of ${perRound} calls (median of round means; target: overhead <= 0.3 ms)`)
console.log(`  wall per call: ${figure("wall")}`)
console.log(`  CPU per call:  ${figure("cpu")}`)
await direct.close()
await Effect.runPromise(Scope.close(scope, Exit.void))
