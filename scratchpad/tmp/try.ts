import * as Effect from "effect/Effect"
import * as ShellCommand from "../../src/permissions/ShellCommand.js"
for (const s of process.argv.slice(2)) {
  const a = await Effect.runPromise(ShellCommand.analyze(s))
  console.log("== " + s)
  for (const c of a.commands) console.log("  cmd", JSON.stringify(c.argv.map((w) => ShellCommand.literal(w) ?? `<${w.source}>`)), c.wrappers.map((w) => w.name).join(","), c.context, c.assignments.map((x) => x.name).join(","))
  for (const r of a.redirects) console.log("  redir", r.kind, r.operator, r.target?.value)
  for (const u of a.unanalysable) console.log("  UNANALYSABLE", u.kind, u.message)
}
import * as R from "../../src/permissions/ReadOnlyCommands.js"
for (const s of process.argv.slice(2)) {
  const a = await Effect.runPromise(ShellCommand.analyze(s))
  console.log("  readOnly:", JSON.stringify(R.readOnly(a)))
}
