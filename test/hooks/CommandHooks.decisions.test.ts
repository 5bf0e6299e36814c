/**
 * What command hooks decide, event by event, and how the answers of several hooks combine: the permission order
 * (deny > ask > allow, whatever the order of configuration), blocks by exit code 2 or `decision: "block"`, the
 * feedback that goes back to the model, `continue: false`, and what is never obeyed (JSON printed by a hook that
 * failed). Each hook is a real `/bin/sh -c` command; answers are fixed JSON printed on stdout.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as CommandHooks from "../../src/hooks/CommandHooks.js"
import * as HookConfig from "../../src/hooks/HookConfig.js"
import { eventNames as HookEventNames } from "../../src/hooks/HookEvent.js"
import type { Interface, Outcome, ToolHookInput } from "../../src/hooks/Hooks.js"
import { tempDir, write } from "../support/TempFiles.js"

const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin" }

/** Quotes `text` for /bin/sh. */
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** A hook command printing `answer` as JSON on stdout, then exiting with `code`; `tag` keeps equal answers apart. */
const answer = (tag: string, value: unknown, code = 0) => `: ${tag}; printf '%s' ${sq(JSON.stringify(value))}; exit ${code}`

/** A hook command printing `text` on stderr and exiting with `code`. */
const fail = (code: number, text: string) => `printf '%s' ${sq(text)} >&2; exit ${code}`

const command = (text: string) => ({ type: "command", command: text })
const group = (matcher: string | undefined, ...commands: ReadonlyArray<string>) => ({
  ...(matcher === undefined ? {} : { matcher }),
  hooks: commands.map(command)
})

const make = (dir: string, hooks: unknown) => CommandHooks.make({ settings: { hooks }, projectDir: dir, env })

const tool = (dir: string, toolName = "Bash"): ToolHookInput => ({
  sessionId: "s-1",
  cwd: dir,
  permissionMode: "default",
  toolName,
  toolUseId: "toolu_1",
  toolInput: { command: "ls" }
})

/** The outcome without the activity (what the loop acts on). */
const decided = <O extends Outcome>(outcome: O): Omit<O, "activity"> => {
  const { activity: _, ...rest } = outcome
  return rest
}

/** Every event once, each answered by the hooks configured for it (tool events on Bash). */
const everyEvent = (hooks: Interface, dir: string) =>
  Effect.gen(function* () {
    const ctx = { sessionId: "s-1", cwd: dir, permissionMode: "default" }
    return {
      SessionStart: yield* hooks.sessionStart({ sessionId: "s-1", cwd: dir, source: "startup" }),
      UserPromptSubmit: yield* hooks.userPromptSubmit({ ...ctx, prompt: "hello" }),
      PreToolUse: yield* hooks.preToolUse(tool(dir)),
      PermissionRequest: yield* hooks.permissionRequest(tool(dir)),
      PostToolUse: yield* hooks.postToolUse({ ...tool(dir), toolResponse: "ok" }),
      PostToolUseFailure: yield* hooks.postToolUseFailure({ ...tool(dir), error: "Exit code 1", isInterrupt: false }),
      Notification: yield* hooks.notification({ ...ctx, message: "m", notificationType: "idle_prompt" }),
      Stop: yield* hooks.stop({ ...ctx, stopHookActive: false }),
      SubagentStop: yield* hooks.subagentStop({ ...ctx, stopHookActive: false }),
      PreCompact: yield* hooks.preCompact({ ...ctx, trigger: "auto", customInstructions: null }),
      SessionEnd: (yield* hooks.sessionEnd({ sessionId: "s-1", cwd: dir, reason: "other" })) ?? {}
    } satisfies Record<string, Outcome>
  })

/** The same hook commands on every event. */
const onEveryEvent = (...commands: ReadonlyArray<string>) =>
  Object.fromEntries(
    HookEventNames.map((event) => [event, [group(undefined, ...commands)]])
  )

/** An answer that asks for everything a hook can ask for. */
const everything = {
  continue: false,
  stopReason: "stop now",
  systemMessage: "for the user",
  decision: "block",
  reason: "blocked by JSON",
  hookSpecificOutput: {
    permissionDecision: "deny",
    permissionDecisionReason: "denied by JSON",
    additionalContext: "context from JSON",
    customInstructions: "keep it short",
    decision: { behavior: "deny", message: "refused by JSON" }
  }
}

const permutations = <A>(items: ReadonlyArray<A>): ReadonlyArray<ReadonlyArray<A>> =>
  items.length <= 1 ? [items] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]))

describe("command hooks: decisions", () => {
  it.live("PreToolUse: deny beats ask beats allow, in every order of configuration, in one entry or several", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hook = (decision: string) =>
        answer(decision, { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: `why ${decision}` } })
      const expected = (decisions: ReadonlyArray<string>) => (decisions.includes("deny") ? "deny" : decisions.includes("ask") ? "ask" : "allow")
      const orders = [...permutations(["allow", "ask", "deny"]), ...permutations(["allow", "ask"]), ...permutations(["allow", "deny"]), ...permutations(["ask", "deny"]), ["allow"]]
      for (const order of orders) {
        const want = expected(order)
        // All under one matcher, and each under its own matcher (all of which match Bash).
        const oneEntry = yield* make(dir, { PreToolUse: [group("Bash", ...order.map(hook))] })
        const matchers = ["Bash", "*", "Ba.*"]
        const entries = yield* make(dir, { PreToolUse: order.map((decision, i) => group(matchers[i], hook(decision))) })
        for (const hooks of [oneEntry, entries]) {
          const outcome = yield* hooks.preToolUse(tool(dir))
          expect(decided(outcome), `order ${order.join(", ")}`).toStrictEqual({ permissionDecision: want, permissionDecisionReason: `why ${want}` })
          // Only a deny blocks, in the activity.
          expect(outcome.activity?.map((a) => a.outcome)).toEqual(order.map((decision) => (decision === "deny" ? "blocked" : "success")))
        }
      }
    })
  )

  it.live("PreToolUse: the reasons of every hook giving the winning decision are kept, in the order listed; the others' dropped", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const decide = (tag: string, decision: string, reason?: string) =>
        answer(tag, { hookSpecificOutput: { permissionDecision: decision, ...(reason === undefined ? {} : { permissionDecisionReason: reason }) } })
      const hooks = yield* make(dir, {
        PreToolUse: [
          group("Bash", decide("a", "ask", "ask reason"), decide("b", "deny", "first deny"), decide("c", "deny"), decide("d", "deny", "second deny"))
        ]
      })
      expect(decided(yield* hooks.preToolUse(tool(dir)))).toStrictEqual({ permissionDecision: "deny", permissionDecisionReason: "first deny\nsecond deny" })
      const noReason = yield* make(dir, { PreToolUse: [group("Bash", decide("e", "allow"), decide("f", "ask"))] })
      expect(decided(yield* noReason.preToolUse(tool(dir)))).toStrictEqual({ permissionDecision: "ask" })
      // Hooks that decide nothing, listed first, do not hide a later allow.
      const undecided = yield* make(dir, { PreToolUse: [group("Bash", "echo plain", answer("g", { systemMessage: "hm" }), decide("h", "allow"))] })
      expect(decided(yield* undecided.preToolUse(tool(dir)))).toStrictEqual({ permissionDecision: "allow", systemMessages: ["hm"] })
    })
  )

  it.live("PreToolUse: the older top-level decision counts; a hook-specific answer wins over it", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hooks = yield* make(dir, {
        PreToolUse: [
          group("Approve", answer("a", { decision: "approve" })),
          group("Block", answer("b", { decision: "block" })),
          group("Both", answer("c", { decision: "block", reason: "top level", hookSpecificOutput: { permissionDecision: "allow", permissionDecisionReason: "specific" } })),
          group("TopReason", answer("d", { reason: "top level reason", hookSpecificOutput: { permissionDecision: "ask" } })),
          group("Neither", answer("e", { reason: "no decision", hookSpecificOutput: { additionalContext: "just context" } })),
          group("Plain", "echo 'plain words'"),
          group("Empty", "true")
        ]
      })
      const call = (name: string) => Effect.map(hooks.preToolUse(tool(dir, name)), decided)
      expect(yield* call("Approve")).toStrictEqual({ permissionDecision: "allow" })
      expect(yield* call("Block")).toStrictEqual({ permissionDecision: "deny" })
      expect(yield* call("Both")).toStrictEqual({ permissionDecision: "allow", permissionDecisionReason: "specific" })
      expect(yield* call("TopReason")).toStrictEqual({ permissionDecision: "ask", permissionDecisionReason: "top level reason" })
      expect(yield* call("Neither")).toStrictEqual({ additionalContext: "just context" })
      // Plain stdout of a PreToolUse hook is not context for the model.
      expect(yield* call("Plain")).toStrictEqual({})
      expect(yield* call("Empty")).toStrictEqual({})
      // No hook matches: nothing ran, nothing to report.
      expect(yield* hooks.preToolUse(tool(dir, "Unmatched"))).toStrictEqual({})
    })
  )

  it.live("PreToolUse: exit 2 blocks whatever another hook allows; the first listed updatedInput wins; contexts join", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const rewrite = (tag: string, input: unknown, context?: string) =>
        answer(tag, { hookSpecificOutput: { updatedInput: input, ...(context === undefined ? {} : { additionalContext: context }) } })
      const silent = "exit 2"
      const hooks = yield* make(dir, {
        PreToolUse: [
          group("Bash", fail(2, "  no rm here  "), answer("allow", { hookSpecificOutput: { permissionDecision: "allow" } }), silent),
          group("Write", answer("none", { hookSpecificOutput: { additionalContext: "" } }), rewrite("first", { n: 1 }, "one"), rewrite("second", { n: 2 }, "two"))
        ]
      })
      const bash = yield* hooks.preToolUse(tool(dir))
      expect(bash.permissionDecision).toBe("allow")
      const [noisy, quiet] = bash.blocked?.split("\n") ?? []
      expect(noisy).toBe(`[${fail(2, "  no rm here  ")}]: no rm here`)
      // A hook that exits 2 without a word still blocks, and the model learns which one.
      expect(quiet).toContain(`[${silent}]`)
      expect(quiet).toMatch(/exit code 2/)
      expect(bash.activity?.map((a) => a.outcome)).toEqual(["blocked", "success", "blocked"])
      expect(bash.activity?.[0]).not.toHaveProperty("note")
      expect(bash.activity?.[1]).not.toHaveProperty("note")
      expect(decided(yield* hooks.preToolUse(tool(dir, "Write")))).toStrictEqual({ updatedInput: { n: 1 }, additionalContext: "one\ntwo" })
    })
  )

  it.live("a hook that exits 1 is not obeyed, whatever JSON it prints, on any event; the same JSON on exit 0 is", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      for (const code of [1, 3]) {
        const failing = answer("failing", everything, code)
        const outcomes = yield* everyEvent(yield* make(dir, onEveryEvent(failing)), dir)
        for (const [event, outcome] of Object.entries(outcomes)) {
          expect(decided(outcome), `${event} exit ${code}`).toStrictEqual({})
          expect(outcome.activity, event).toHaveLength(1)
          const activity = outcome.activity?.[0]
          expect(activity, event).toMatchObject({ outcome: "error", exitCode: code, hookEvent: event })
          expect(activity?.note).toContain(String(code))
        }
      }
      const obeyed = yield* everyEvent(yield* make(dir, onEveryEvent(answer("ok", everything, 0))), dir)
      for (const [event, outcome] of Object.entries(obeyed)) {
        expect(outcome, event).toMatchObject({ stopRun: "stop now", systemMessages: ["for the user"] })
      }
      expect(obeyed.PreToolUse).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "denied by JSON" })
      expect(obeyed.PermissionRequest.decision).toEqual({ behavior: "deny", message: "refused by JSON" })
      expect(obeyed.PostToolUse.blocked).toBe("blocked by JSON")
      expect(obeyed.Stop.continueWith).toBe("blocked by JSON")
      expect(obeyed.UserPromptSubmit.blocked).toBe("blocked by JSON")
    })
  )

  it.live("a non-blocking failure names its exit code and stderr in the activity", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hooks = yield* make(dir, { Stop: [group(undefined, fail(1, "  oops  \n"), `${fail(7, " \n ")}`)] })
      const outcome = yield* hooks.stop({ sessionId: "s-1", cwd: dir, stopHookActive: false })
      expect(decided(outcome)).toStrictEqual({})
      const [oops, seven] = outcome.activity ?? []
      expect(oops).toMatchObject({ outcome: "error", exitCode: 1, stderr: "  oops  \n" })
      expect(oops?.note).toMatch(/1: oops$/)
      expect(seven).toMatchObject({ outcome: "error", exitCode: 7, stderr: " \n " })
      expect(seven?.note).toMatch(/7$/)
    })
  )

  it.live("exit 2 on every event: blocks where the event can block, and is a plain error where it cannot", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const exit2 = `echo 'stdout is ignored'; ${fail(2, "stop that")}`
      const reason = `[${exit2}]: stop that`
      const outcomes = yield* everyEvent(yield* make(dir, onEveryEvent(exit2)), dir)
      expect(decided(outcomes.PreToolUse)).toStrictEqual({ blocked: reason })
      expect(decided(outcomes.PermissionRequest)).toStrictEqual({ decision: { behavior: "deny", message: reason } })
      expect(decided(outcomes.PostToolUse)).toStrictEqual({ blocked: reason })
      expect(decided(outcomes.PostToolUseFailure)).toStrictEqual({ blocked: reason })
      expect(decided(outcomes.Stop)).toStrictEqual({ continueWith: reason })
      expect(decided(outcomes.SubagentStop)).toStrictEqual({ continueWith: reason })
      expect(decided(outcomes.UserPromptSubmit)).toStrictEqual({ blocked: reason })
      for (const event of ["PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "UserPromptSubmit"] as const) {
        expect(outcomes[event].activity?.[0], event).toMatchObject({ outcome: "blocked", exitCode: 2 })
      }
      // Where exit 2 cannot block, it is an error like any other (and its stdout is not context).
      for (const event of ["SessionStart", "Notification", "PreCompact", "SessionEnd"] as const) {
        expect(decided(outcomes[event]), event).toStrictEqual({})
        expect(outcomes[event].activity?.[0], event).toMatchObject({ outcome: "error", exitCode: 2 })
      }
    })
  )

  it.live("PostToolUse and PostToolUseFailure: a block's reason and JSON context go to the model; plain stdout does not", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const blockWithoutReason = answer("no-reason", { decision: "block" })
      const entries = [
        group("Reason", answer("r", { decision: "block", reason: "the tests fail now" }), fail(2, "and lint too")),
        group("NoReason", blockWithoutReason),
        group("Context", answer("c1", { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "formatted the file" } }), answer("c2", { decision: "approve", hookSpecificOutput: { additionalContext: "ran the linter" } })),
        group("Plain", "echo 'plain words'")
      ]
      const hooks = yield* make(dir, { PostToolUse: entries, PostToolUseFailure: entries })
      for (const after of [
        (name: string) => hooks.postToolUse({ ...tool(dir, name), toolResponse: "ok" }),
        (name: string) => hooks.postToolUseFailure({ ...tool(dir, name), error: "failed", isInterrupt: false })
      ]) {
        const reason = yield* after("Reason")
        expect(decided(reason)).toStrictEqual({ blocked: `the tests fail now\n[${fail(2, "and lint too")}]: and lint too` })
        expect(reason.activity?.map((a) => a.outcome)).toEqual(["blocked", "blocked"])
        const noReason = yield* after("NoReason")
        expect(noReason.blocked).toContain(`[${blockWithoutReason}]`)
        expect(decided(noReason)).toStrictEqual({ blocked: noReason.blocked })
        const context = yield* after("Context")
        expect(decided(context)).toStrictEqual({ additionalContext: "formatted the file\nran the linter" })
        expect(context.activity?.map((a) => a.outcome)).toEqual(["success", "success"])
        expect(decided(yield* after("Plain"))).toStrictEqual({})
      }
    })
  )

  it.live("Stop and SubagentStop: a block sends its reason back and the loop goes on; continue: false stops", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const blockWithoutReason = answer("no-reason", { decision: "block" })
      const stopWithoutReason = answer("stop", { continue: false })
      const hooks = yield* make(dir, {
        Stop: [group(undefined, answer("reason", { decision: "block", reason: "run the tests first" }), blockWithoutReason, answer("ctx", { decision: "approve", hookSpecificOutput: { additionalContext: "ignored" } }), "true")],
        SubagentStop: [group(undefined, answer("halt", { continue: false, stopReason: "budget spent", decision: "block", reason: "go on" }), stopWithoutReason)]
      })
      const ctx = { sessionId: "s-1", cwd: dir, permissionMode: "default", stopHookActive: false }
      const stop = yield* hooks.stop(ctx)
      const [first, second] = stop.continueWith?.split("\n") ?? []
      expect(first).toBe("run the tests first")
      expect(second).toContain(`[${blockWithoutReason}]`)
      expect(decided(stop)).toStrictEqual({ continueWith: stop.continueWith })
      expect(stop.activity?.map((a) => [a.hookName, a.outcome])).toEqual([
        ["Stop", "blocked"],
        ["Stop", "blocked"],
        ["Stop", "success"],
        ["Stop", "success"]
      ])
      // The first hook (in the order listed) that says continue: false gives the reason for stopping.
      const sub = yield* hooks.subagentStop(ctx)
      expect(decided(sub)).toStrictEqual({ stopRun: "budget spent", continueWith: "go on" })
      const onlyDefault = yield* make(dir, { Stop: [group(undefined, stopWithoutReason)] })
      const stopped = yield* onlyDefault.stop(ctx)
      expect(stopped.stopRun).toContain(stopWithoutReason)
      expect(stopped.activity?.[0]?.outcome).toBe("success")
    })
  )

  it.live("PermissionRequest: a hook answers in place of the person; deny wins in either order; exit 2 refuses", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const allow = answer("allow", { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedInput: { command: "ls -la" } } } })
      const allow2 = answer("allow2", { hookSpecificOutput: { decision: { behavior: "allow" } } })
      const deny = answer("deny", { hookSpecificOutput: { decision: { behavior: "deny", message: "not here", interrupt: true } } })
      const hooks = yield* make(dir, {
        PermissionRequest: [
          group("Allow", allow, allow2),
          group("AllowDeny", allow, deny),
          group("DenyAllow", deny, allow),
          group("Exit2", allow, fail(2, "nobody may")),
          group("Nothing", answer("nothing", { hookSpecificOutput: { additionalContext: "x" }, decision: "block" }), answer("empty", {}), "true")
        ]
      })
      const ask = (name: string) => hooks.permissionRequest(tool(dir, name))
      const allowed = yield* ask("Allow")
      expect(decided(allowed)).toStrictEqual({ decision: { behavior: "allow", updatedInput: { command: "ls -la" } } })
      expect(allowed.activity?.map((a) => a.outcome)).toEqual(["success", "success"])
      for (const name of ["AllowDeny", "DenyAllow"]) {
        const denied = yield* ask(name)
        expect(decided(denied), name).toStrictEqual({ decision: { behavior: "deny", message: "not here", interrupt: true } })
        expect(denied.activity?.find((a) => a.command === deny)?.outcome).toBe("blocked")
      }
      expect(decided(yield* ask("Exit2"))).toStrictEqual({ decision: { behavior: "deny", message: `[${fail(2, "nobody may")}]: nobody may` } })
      // No decision (a top-level block is not one here): the ask goes on.
      const nothing = yield* ask("Nothing")
      expect(decided(nothing)).toStrictEqual({})
      expect(nothing.activity?.map((a) => a.outcome)).toEqual(["success", "success", "success"])
    })
  )

  it.live("UserPromptSubmit: exit 2, decision: block and continue: false erase the prompt; context only when it goes", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const context = answer("ctx", { hookSpecificOutput: { additionalContext: "Today is a holiday." } })
      const blockWithoutReason = answer("block", { decision: "block" })
      const stopWithoutReason = answer("stop", { continue: false })
      const prompt = (hooks: Interface) => hooks.userPromptSubmit({ sessionId: "s-1", cwd: dir, permissionMode: "default", prompt: "hi" })
      const run = (...commands: ReadonlyArray<string>) =>
        Effect.flatMap(make(dir, { UserPromptSubmit: [group(undefined, ...commands)] }), prompt)

      const reasoned = yield* run(context, answer("r", { decision: "block", reason: "no secrets in prompts" }))
      expect(decided(reasoned)).toStrictEqual({ blocked: "no secrets in prompts" })
      expect(reasoned.activity?.map((a) => a.outcome)).toEqual(["success", "blocked"])

      const bare = yield* run(context, blockWithoutReason)
      expect(bare.blocked).toContain(`[${blockWithoutReason}]`)
      expect(bare.additionalContext).toBeUndefined()

      const stopped = yield* run(context, answer("s", { continue: false, stopReason: "quota reached" }))
      expect(decided(stopped)).toStrictEqual({ stopRun: "quota reached", blocked: "quota reached" })
      expect(stopped.activity?.map((a) => a.outcome)).toEqual(["success", "blocked"])

      const stoppedBare = yield* run(stopWithoutReason)
      expect(stoppedBare.blocked).toContain(`[${stopWithoutReason}]`)
      expect(stoppedBare.stopRun).toContain(stopWithoutReason)

      // continue: true is no stop; plain stdout and JSON context both reach the model, in the order listed.
      const going = yield* run(answer("go", { continue: true, hookSpecificOutput: { additionalContext: "" } }), context, "echo 'plain note'")
      expect(decided(going)).toStrictEqual({ additionalContext: "Today is a holiday.\nplain note" })
      expect(going.activity?.map((a) => a.outcome)).toEqual(["success", "success", "success"])
    })
  )

  it.live("continue: false stops the run from any event, with its stopReason, beside the event's own answer", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hooks = yield* make(dir, {
        PreToolUse: [
          group("Bash", answer("a", { continue: true, systemMessage: "first" }), answer("b", { continue: false, stopReason: "enough", systemMessage: "second", hookSpecificOutput: { permissionDecision: "allow" } }), answer("c", { continue: false, stopReason: "later" }))
        ],
        Notification: [group(undefined, answer("n", { continue: false, stopReason: "bye" }))]
      })
      const outcome = yield* hooks.preToolUse(tool(dir))
      expect(decided(outcome)).toStrictEqual({ stopRun: "enough", systemMessages: ["first", "second"], permissionDecision: "allow" })
      expect(outcome.activity?.map((a) => a.outcome)).toEqual(["success", "success", "success"])
      const note = yield* hooks.notification({ sessionId: "s-1", cwd: dir, message: "m" })
      expect(decided(note)).toStrictEqual({ stopRun: "bye" })
      // A Notification without a type has no matcher target: the hook is named after the event alone.
      expect(note.activity?.[0]?.hookName).toBe("Notification")
      const typed = yield* hooks.notification({ sessionId: "s-1", cwd: dir, message: "m", notificationType: "idle_prompt" })
      expect(typed.activity?.[0]?.hookName).toBe("Notification:idle_prompt")
    })
  )

  it.live("SessionStart: plain stdout and JSON context are for the model; system messages for the user", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hooks = yield* make(dir, {
        SessionStart: [group("startup", "echo 'branch: main'", answer("j", { systemMessage: "welcome", hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "3 open issues" } }), answer("k", { systemMessage: "again" }))]
      })
      const outcome = yield* hooks.sessionStart({ sessionId: "s-1", cwd: dir, source: "startup" })
      expect(decided(outcome)).toStrictEqual({ additionalContext: "branch: main\n3 open issues", systemMessages: ["welcome", "again"] })
      expect(outcome.activity?.map((a) => [a.hookName, a.outcome])).toEqual([
        ["SessionStart:startup", "success"],
        ["SessionStart:startup", "success"],
        ["SessionStart:startup", "success"]
      ])
    })
  )

  it.live("output that is not a hook answer is ignored and reported: invalid JSON, JSON of the wrong shape", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const hooks = yield* make(dir, {
        PreToolUse: [
          group("Invalid", "printf '{\"decision\": \"block\",'"),
          group("Shape", answer("shape", { decision: "deny", reason: "not a valid top-level decision" }))
        ],
        UserPromptSubmit: [group(undefined, "printf '{\"decision\": \"block\",'")]
      })
      const invalid = yield* hooks.preToolUse(tool(dir, "Invalid"))
      const shape = yield* hooks.preToolUse(tool(dir, "Shape"))
      // Looks like JSON, so it is not taken as plain context either.
      const prompt = yield* hooks.userPromptSubmit({ sessionId: "s-1", cwd: dir, prompt: "x" })
      for (const outcome of [invalid, shape, prompt]) {
        expect(decided(outcome)).toStrictEqual({})
        expect(outcome.activity?.[0]).toMatchObject({ outcome: "error", exitCode: 0 })
      }
      expect(invalid.activity?.[0]?.note).toMatch(/not valid JSON/)
      expect(shape.activity?.[0]?.note).toMatch(/not a hook answer/)
    })
  )

  it.live("text for the model is cut at 10,000 characters, wherever it comes from; text up to that passes whole", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const max = CommandHooks.maxModelText
      const long = "x".repeat(max + 1)
      const exact = "y".repeat(max)
      /** A hook printing `value` as JSON from a file (too long for a command line to read well). */
      const fromFile = (name: string, value: unknown) => {
        const file = path.join(dir, `${name}.json`)
        write(file, JSON.stringify(value))
        return `cat ${sq(file)}`
      }
      const textFile = (name: string, text: string) => {
        const file = path.join(dir, `${name}.txt`)
        write(file, text)
        return file
      }
      const hooks = yield* make(dir, {
        PreToolUse: [
          group("Exit2", `cat ${sq(textFile("stderr", long))} >&2; exit 2`),
          group("Exact", `cat ${sq(textFile("exact", exact))} >&2; exit 2`),
          group("Reason", fromFile("reason", { hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: long, additionalContext: long } }))
        ],
        PostToolUse: [group(undefined, fromFile("post", { decision: "block", reason: long }))],
        Stop: [group(undefined, fromFile("stop", { decision: "block", reason: long }))],
        UserPromptSubmit: [group(undefined, `cat ${sq(textFile("plain", long))}`)],
        PreCompact: [group(undefined, fromFile("compact", { hookSpecificOutput: { customInstructions: long } }))]
      })
      const isCut = (text: string | undefined) => {
        expect(text?.startsWith("x".repeat(max))).toBe(true)
        expect(text?.includes("x".repeat(max + 1))).toBe(false)
        // The reader is told the text was cut.
        expect(text?.length).toBeGreaterThan(max)
      }
      const exit2 = yield* hooks.preToolUse(tool(dir, "Exit2"))
      isCut(exit2.blocked?.slice(exit2.blocked.indexOf("]: ") + 3))
      const whole = yield* hooks.preToolUse(tool(dir, "Exact"))
      expect(whole.blocked?.endsWith(`]: ${exact}`)).toBe(true)
      const reason = yield* hooks.preToolUse(tool(dir, "Reason"))
      isCut(reason.permissionDecisionReason)
      isCut(reason.additionalContext)
      isCut((yield* hooks.postToolUse({ ...tool(dir), toolResponse: "ok" })).blocked)
      isCut((yield* hooks.stop({ sessionId: "s-1", cwd: dir, stopHookActive: false })).continueWith)
      isCut((yield* hooks.userPromptSubmit({ sessionId: "s-1", cwd: dir, prompt: "x" })).additionalContext)
      isCut((yield* hooks.preCompact({ sessionId: "s-1", cwd: dir, trigger: "auto", customInstructions: null })).customInstructions)
    })
  )

  it.live("the activity: suppressOutput hides stdout; a hook that could not start fails open and says why", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const quiet = answer("quiet", { suppressOutput: true, hookSpecificOutput: { additionalContext: "still for the model" } })
      const loud = answer("loud", { suppressOutput: false })
      const hooks = yield* make(dir, { PostToolUse: [group(undefined, quiet, loud)] })
      const outcome = yield* hooks.postToolUse({ ...tool(dir), toolResponse: "ok" })
      expect(outcome.additionalContext).toBe("still for the model")
      expect(outcome.activity?.map((a) => a.stdout)).toEqual(["", JSON.stringify({ suppressOutput: false })])

      const missing = path.join(dir, "gone")
      const nowhere = yield* CommandHooks.make({ settings: { hooks: { PreToolUse: [group(undefined, fail(2, "never runs"))] } }, projectDir: missing, env })
      const unstarted = yield* nowhere.preToolUse(tool(dir))
      expect(decided(unstarted)).toStrictEqual({})
      const activity = unstarted.activity?.[0]
      expect(activity).toMatchObject({ outcome: "error", stdout: "", stderr: "" })
      expect(activity).not.toHaveProperty("exitCode")
      expect(activity?.note).toMatch(/ENOENT/)
    })
  )

  it.live("hooks of one event run side by side", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      // Each hook opens a FIFO the other opens from the far end: run one after the other, the first would wait
      // for its partner until its timeout.
      const there = path.join(dir, "there")
      const back = path.join(dir, "back")
      execFileSync("mkfifo", [there, back])
      const a = `echo ping > ${sq(there)}; read reply < ${sq(back)}; echo "a got $reply"`
      const b = `read said < ${sq(there)}; echo pong > ${sq(back)}; echo "b got $said"`
      const hooks = yield* make(dir, { UserPromptSubmit: [{ hooks: [{ type: "command", command: a, timeout: 10 }, { type: "command", command: b, timeout: 10 }] }] })
      const outcome = yield* hooks.userPromptSubmit({ sessionId: "s-1", cwd: dir, prompt: "x" })
      expect(outcome.additionalContext).toBe("a got pong\nb got ping")
    })
  )

  it.live("every event's input, with every optional field given, is exactly Claude Code's", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const record = (event: string) => `cat > ${sq(path.join(dir, `${event}.json`))}`
      const hooks = yield* CommandHooks.make({
        settings: { hooks: Object.fromEntries(HookEventNames.map((event) => [event, [group(undefined, record(event))]])) },
        projectDir: dir,
        env,
        transcriptPath: (sessionId, cwd) => `${cwd}/${sessionId}.jsonl`
      })
      const ctx = { sessionId: "s-1", cwd: dir, permissionMode: "plan" }
      const call = { ...ctx, toolName: "Bash", toolUseId: "toolu_1", toolInput: { command: "ls" } }
      yield* hooks.sessionStart({ sessionId: "s-1", cwd: dir, source: "resume", model: "claude-x" })
      yield* hooks.userPromptSubmit({ ...ctx, prompt: "hello" })
      yield* hooks.preToolUse(call)
      yield* hooks.permissionRequest(call)
      yield* hooks.postToolUse({ ...call, toolResponse: { stdout: "a" }, durationMs: 5 })
      yield* hooks.postToolUseFailure({ ...call, error: "Exit code 1", isInterrupt: true, failureKind: "not_found" })
      yield* hooks.notification({ ...ctx, message: "waiting", title: "weft", notificationType: "idle_prompt" })
      yield* hooks.stop({ ...ctx, stopHookActive: true, lastAssistantMessage: "done" })
      yield* hooks.subagentStop({ ...ctx, stopHookActive: false, lastAssistantMessage: "sub done", agentId: "agent-1" })
      yield* hooks.preCompact({ ...ctx, trigger: "manual", customInstructions: "keep names" })
      yield* hooks.sessionEnd({ sessionId: "s-1", cwd: dir, reason: "clear" })
      const input = (event: string) => JSON.parse(fs.readFileSync(path.join(dir, `${event}.json`), "utf8"))
      const common = (event: string) => ({ session_id: "s-1", transcript_path: `${dir}/s-1.jsonl`, cwd: dir, hook_event_name: event })
      const withMode = (event: string) => ({ ...common(event), permission_mode: "plan" })
      const tool = { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_1" }
      expect(input("SessionStart")).toStrictEqual({ ...common("SessionStart"), source: "resume", model: "claude-x" })
      expect(input("UserPromptSubmit")).toStrictEqual({ ...withMode("UserPromptSubmit"), prompt: "hello" })
      expect(input("PreToolUse")).toStrictEqual({ ...withMode("PreToolUse"), ...tool })
      expect(input("PermissionRequest")).toStrictEqual({ ...withMode("PermissionRequest"), ...tool })
      expect(input("PostToolUse")).toStrictEqual({ ...withMode("PostToolUse"), ...tool, tool_response: { stdout: "a" }, duration_ms: 5 })
      expect(input("PostToolUseFailure")).toStrictEqual({
        ...withMode("PostToolUseFailure"),
        ...tool,
        error: "Exit code 1",
        error_kind: "not_found",
        is_interrupt: true
      })
      expect(input("Notification")).toStrictEqual({ ...withMode("Notification"), message: "waiting", title: "weft", notification_type: "idle_prompt" })
      expect(input("Stop")).toStrictEqual({ ...withMode("Stop"), stop_hook_active: true, last_assistant_message: "done" })
      expect(input("SubagentStop")).toStrictEqual({ ...withMode("SubagentStop"), stop_hook_active: false, last_assistant_message: "sub done", agent_id: "agent-1" })
      expect(input("PreCompact")).toStrictEqual({ ...withMode("PreCompact"), trigger: "manual", custom_instructions: "keep names" })
      expect(input("SessionEnd")).toStrictEqual({ ...common("SessionEnd"), reason: "clear" })
    })
  )

  it.live("options: a decoded config, disableAllHooks, warnings, the environment, the project directory, defaults", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const record = `cat > ${sq(path.join(dir, "in.json"))}; echo "x=\${X:-none} pwd=$(pwd)"`
      const hooks = { UserPromptSubmit: [group(undefined, record)], Bogus: [] }
      const prompt = (h: Interface, permissionMode?: string) =>
        h.userPromptSubmit({ sessionId: "s-1", cwd: dir, prompt: "x", ...(permissionMode === undefined ? {} : { permissionMode }) })
      const input = () => JSON.parse(fs.readFileSync(path.join(dir, "in.json"), "utf8"))

      const warnings: Array<string> = []
      const onWarning = (warning: string) => Effect.sync(() => void warnings.push(warning))
      // Settings with their own unrelated `warnings` key are still read as settings.
      const settings = { hooks, warnings: [] }
      const fromSettings = yield* CommandHooks.make({ settings, projectDir: dir, env: { ...env, X: "given" }, onWarning })
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("Bogus")
      expect((yield* prompt(fromSettings)).additionalContext).toBe(`x=given pwd=${dir}`)
      // The transcript path is empty when none is given; the permission mode defaults to "default".
      expect(input()).toMatchObject({ transcript_path: "", permission_mode: "default", prompt: "x" })
      yield* prompt(fromSettings, "plan")
      expect(input().permission_mode).toBe("plan")

      // A config decoded already is used as it is; `environment` wins over `env`.
      const decoded = yield* CommandHooks.make({
        settings: HookConfig.decode({ UserPromptSubmit: [group(undefined, record)] }),
        projectDir: dir,
        env: { ...env, X: "env" },
        environment: Effect.succeed({ ...env, X: "environment" }),
        onWarning
      })
      expect((yield* prompt(decoded)).additionalContext).toBe(`x=environment pwd=${dir}`)

      // disableAllHooks: nothing runs.
      const disabled = yield* CommandHooks.make({ settings: { hooks, disableAllHooks: true }, projectDir: dir, env, onWarning })
      expect(yield* prompt(disabled)).toStrictEqual({})

      // Without projectDir, hooks run in the process's working directory; without a handler, warnings are logged.
      const logged: Array<unknown> = []
      const logger = Logger.make(({ message }) => void logged.push(message))
      const defaults = yield* CommandHooks.make({ settings: { hooks }, env }).pipe(Effect.provide(Logger.layer([logger])))
      expect(String(logged)).toContain("Bogus")
      expect((yield* prompt(defaults)).additionalContext).toBe(`x=none pwd=${process.cwd()}`)
      // Without env, hooks get this process's environment (less weft's credentials).
      const inherited = yield* CommandHooks.make({ settings: { hooks: { UserPromptSubmit: [group(undefined, 'echo "home=$HOME"')] } }, projectDir: dir })
      expect((yield* prompt(inherited)).additionalContext).toBe(`home=${process.env["HOME"]}`)
    })
  )
})
