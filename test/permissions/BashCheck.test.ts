import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as BashCheck from "../../src/permissions/BashCheck.js"
import { type Case, decisionOf, verdict } from "./support.js"

const none: BashCheck.BashRuleSet = { allow: [], ask: [], deny: [] }

// The stand-in without a parser: every line is unanalysable, asked about, denied while any Bash deny rule exists.
describe("BashCheck.unanalysed", () => {
  it("accepts every rule specifier (it cannot parse them)", () => {
    expect(BashCheck.unanalysed.validate("git:*")).toBeUndefined()
    expect(BashCheck.unanalysed.validate("echo 'a")).toBeUndefined()
  })

  it.effect("asks about every line, as unanalysable, when no deny rule exists", () =>
    Effect.gen(function* () {
      for (const rules of [none, { allow: ["ls", undefined], ask: ["rm:*"], deny: [] }]) {
        const result = yield* BashCheck.unanalysed.check("ls", rules)
        expect(result._tag).toBe("Ask")
        if (result._tag !== "Ask") return
        expect(result.unanalysable).toBe(true)
        expect(result.reason).not.toBe("")
      }
    })
  )

  it.effect("denies every line while any Bash deny rule exists, the whole tool's included", () =>
    Effect.gen(function* () {
      for (const deny of [["rm:*"], [undefined], ["a", "b"]]) {
        const result = yield* BashCheck.unanalysed.check("ls", { allow: ["ls"], ask: [], deny })
        expect(result._tag).toBe("Deny")
        if (result._tag === "Deny") expect(result.reason).not.toBe("")
      }
    })
  )
})

// The same stand-in behind Permissions: the decision in each mode.
const bash = (command: string, rest: Omit<Case, "name" | "tool" | "command">): Case => ({ name: command, tool: "Bash", command, ...rest })
const rules = (permissions: { readonly allow?: ReadonlyArray<string>; readonly deny?: ReadonlyArray<string>; readonly ask?: ReadonlyArray<string> }) => ({
  user: { permissions }
})

const cases: ReadonlyArray<Case> = [
  bash("ls", { expect: "ask" }),
  bash("ls", { mode: "acceptEdits", expect: "ask" }),
  bash("ls", { mode: "bypassPermissions", expect: "allow" }),
  bash("ls", { mode: "plan", expect: "deny" }),
  bash("ls", { mode: "dontAsk", expect: "deny" }),
  bash("ls", { settings: rules({ allow: ["Bash(ls)"] }), expect: "ask" }),
  bash("ls", { settings: rules({ deny: ["Bash(rm:*)"] }), expect: "deny" }),
  bash("ls", { settings: rules({ deny: ["Bash(rm:*)"] }), mode: "bypassPermissions", expect: "deny" }),
  bash("ls", { settings: rules({ ask: ["Bash(rm:*)"] }), mode: "bypassPermissions", expect: "allow" })
]

describe("Permissions.check with BashCheck.unanalysed", () => {
  for (const test of cases) {
    it.effect(`${test.command} [${test.mode ?? "default"} ${JSON.stringify(test.settings ?? {})}] -> ${test.expect}`, () =>
      Effect.gen(function* () {
        const decision = yield* decisionOf(test, BashCheck.unanalysed)
        expect(verdict(decision)).toBe(test.expect)
      })
    )
  }
})
