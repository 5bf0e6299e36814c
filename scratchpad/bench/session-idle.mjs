// Idle conversations in one process (the library): N Sessions (default 100) over one set of services (a scripted
// model, the Echo tool, permissive rules, no transcript), each with one prompt answered (a tool call and an answer,
// four messages), then left idle. What each conversation holds: the heap after a full GC, minus the heap before the
// Sessions were made, divided by N. The baseline, in the same run: the same conversations' histories alone (the four
// messages each, as plain data), which any host must keep anyway; the ratio says what the Session adds.
// Run after `npm run build:lib`, with a node that exposes the GC:
//   node --expose-gc scratchpad/bench/session-idle.mjs [conversations=100]
import { existsSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const lib = join(root, "dist/lib")
if (!existsSync(join(lib, "agent/Session.js"))) {
  console.error("run `npm run build:lib` first")
  process.exit(1)
}
if (typeof globalThis.gc !== "function") {
  console.error("run with node --expose-gc")
  process.exit(1)
}
const load = (path) => import(pathToFileURL(join(lib, path)).href)
const Effect = await import("effect/Effect")
const Layer = await import("effect/Layer")
const Schema = await import("effect/Schema")
const Scope = await import("effect/Scope")
const Exit = await import("effect/Exit")
const Context = await import("effect/Context")
const { Session } = await load("agent/Session.js")
const { Transcript } = await load("agent/Transcript.js")
const { Hooks } = await load("hooks/Hooks.js")
const { Permissions } = await load("permissions/Permissions.js")
const { ToolRegistry } = await load("tools/ToolRegistry.js")
const Tool = await load("tools/Tool.js")
const { ScriptedModel } = await load("testing/ScriptedModel.js")
const Script = await load("testing/Script.js")

const count = Number(process.argv[2] ?? 100)
const Echo = Tool.fromEffect({
  name: "Echo",
  description: "Echoes its text.",
  input: Schema.Struct({ text: Schema.String }),
  readOnly: true,
  run: ({ text }) => Effect.succeed(Tool.result(`echo: ${text}`))
})
// Every conversation's one prompt: a tool call, then an answer (the script is played in order across sessions).
const script = []
for (let i = 0; i < count; i++) {
  script.push(Script.ScriptTurn.blocks([Script.toolUse("Echo", { text: `hello ${i}` })]), Script.textTurn(`Done with ${i}.`))
}
const services = Layer.mergeAll(
  ScriptedModel.layer(script),
  ToolRegistry.layer(Echo),
  Permissions.layerPermissive(),
  Hooks.layerNone,
  Transcript.layerNone
)

const heap = () => {
  for (let i = 0; i < 3; i++) globalThis.gc()
  return process.memoryUsage().heapUsed
}

const program = Effect.gen(function* () {
  const context = yield* Layer.build(services)
  const histories = []
  // Warm up: one session made and closed, so the modules' lazy parts are not counted.
  {
    const scope = yield* Scope.make()
    yield* Effect.provide(Session.make({ cwd: root, systemPrompt: "warm" }), context).pipe(Scope.provide(scope))
    yield* Scope.close(scope, Exit.void)
  }
  const before = heap()
  const sessions = []
  for (let i = 0; i < count; i++) {
    const scope = yield* Scope.make()
    const session = yield* Effect.provide(Session.make({ cwd: root, systemPrompt: "Be brief." }), context).pipe(Scope.provide(scope))
    const turn = yield* session.submit(`Say hello ${i}.`)
    yield* turn.result
    sessions.push({ session, scope })
  }
  const withSessions = heap()
  for (const { session } of sessions) histories.push(structuredClone(yield* session.history))
  const withCopies = heap()
  const status = yield* sessions[0].session.status
  if (status.busy || (yield* sessions[0].session.history).length !== 4) throw new Error("a conversation is not idle after one prompt")
  for (const { scope } of sessions) yield* Scope.close(scope, Exit.void)
  sessions.length = 0
  const perSession = (withSessions - before) / count
  const perHistory = (withCopies - withSessions) / count
  console.log(`${count} idle conversations (one prompt answered each, 4 messages)`)
  console.log(`  Session, per conversation:            ${(perSession / 1024).toFixed(1)} KB`)
  console.log(`  its history alone (baseline):         ${(perHistory / 1024).toFixed(1)} KB`)
  console.log(`  ratio Session / history:              ${(perSession / perHistory).toFixed(1)}x`)
  console.log(`  RSS: ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB; histories kept: ${histories.length}`)
})

await Effect.runPromise(Effect.scoped(program))
