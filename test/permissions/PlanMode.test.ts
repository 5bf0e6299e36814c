import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Settings } from "../../src/context/Settings.js"
import { Permissions } from "../../src/permissions/Permissions.js"
import { tempDir } from "../support/TempFiles.js"

const check = (mode: "plan" | "default", allow: ReadonlyArray<string>, request: Parameters<Permissions["Service"]["check"]>[0]) =>
  Effect.gen(function* () {
    const dir = tempDir()
    const permissions = yield* Permissions.make({ mode, allowedTools: allow }).pipe(
      Effect.provide(Settings.layerFromValue({}, { projectDir: dir, home: dir }))
    )
    return { decision: yield* permissions.check(request), permissions }
  })

describe("plan mode", () => {
  it.effect("refuses a command an allow rule covers unless it is read-only", () =>
    Effect.gen(function* () {
      const touch = { toolName: "Bash", toolUseId: "t", input: {}, target: { _tag: "Command", command: "touch x" }, readOnly: false } as const
      expect((yield* check("default", ["Bash(touch x)"], touch)).decision._tag).toBe("Allow")
      expect((yield* check("plan", ["Bash(touch x)"], touch)).decision._tag).toBe("Deny")
      const ls = { ...touch, target: { _tag: "Command", command: "ls" } } as const
      expect((yield* check("plan", [], ls)).decision._tag).toBe("Allow")
    }))

  it.effect("refuses another tool that is not read-only, allow rule or not", () =>
    Effect.gen(function* () {
      const shout = { toolName: "Shout", toolUseId: "t", input: {}, target: { _tag: "None" }, readOnly: false } as const
      expect((yield* check("plan", ["Shout"], shout)).decision._tag).toBe("Deny")
      expect((yield* check("default", ["Shout"], shout)).decision._tag).toBe("Allow")
    }))

  it.effect("inMode views the same rules in another mode; Agent(type) rules name the agent type, Task ones too", () =>
    Effect.gen(function* () {
      const shout = { toolName: "Shout", toolUseId: "t", input: {}, target: { _tag: "None" }, readOnly: false } as const
      const { permissions } = yield* check("default", ["Shout"], shout)
      expect((yield* permissions.inMode!("plan").check(shout))._tag).toBe("Deny")
      expect(permissions.inMode!("plan").mode).toBe("plan")
      const dir = tempDir()
      const denying = yield* Permissions.make({ disallowedTools: ["Task(Explore)"] }).pipe(
        Effect.provide(Settings.layerFromValue({}, { projectDir: dir, home: dir }))
      )
      const agent = (type: string) => ({ toolName: "Agent", toolUseId: "t", input: {}, target: { _tag: "Command", command: type }, readOnly: true }) as const
      expect((yield* denying.check(agent("Explore")))._tag).toBe("Deny")
      expect((yield* denying.check(agent("Plan")))._tag).toBe("Allow")
    }))

  it.effect("ExitPlanMode is always asked about in plan mode, refused outside it", () =>
    Effect.gen(function* () {
      const exit = { toolName: "ExitPlanMode", toolUseId: "t", input: {}, target: { _tag: "Command", command: "plan" }, readOnly: false } as const
      expect((yield* check("plan", ["ExitPlanMode"], exit)).decision._tag).toBe("Ask")
      expect((yield* check("default", [], exit)).decision._tag).toBe("Deny")
    }))
})
