import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { join } from "node:path"
import { Settings, type SettingsValue } from "../../src/context/Settings.js"
import { Grants } from "../../src/extensions/Grants.js"
import { ask, type CheckRequest, Permissions } from "../../src/permissions/Permissions.js"
import { tempDir } from "../support/TempFiles.js"

const write = (path: string): CheckRequest => ({
  toolName: "Write",
  toolUseId: "t1",
  input: { file_path: path },
  target: { _tag: "Path", path, access: "write" },
  readOnly: false
})
const read = (path: string): CheckRequest => ({
  toolName: "Read",
  toolUseId: "t2",
  input: { file_path: path },
  target: { _tag: "Path", path, access: "read" },
  readOnly: true
})

/** Grants over the real Permissions (or `base`) of a project with `settings`. */
const session = (settings: SettingsValue, base?: Layer.Layer<Permissions, never, Settings>) => {
  const project = tempDir()
  const layer = Grants.layer().pipe(
    Layer.provideMerge(base ?? Permissions.layer()),
    Layer.provideMerge(Settings.layerFromValue(settings, { projectDir: project, home: tempDir() }))
  )
  return { project, layer }
}

describe("Grants", () => {
  it.effect("a granted rule allows what the session would ask about, from then on", () => {
    const { project, layer } = session({})
    return Effect.gen(function* () {
      const permissions = yield* Permissions
      const grants = yield* Grants
      expect((yield* permissions.check(write(join(project, "a.txt"))))._tag).toBe("Ask")
      yield* grants.grant(["Write"])
      expect((yield* permissions.check(write(join(project, "a.txt"))))._tag).toBe("Allow")
      expect(yield* grants.rules).toEqual(["Write"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("a deny rule and an ask rule win over a grant", () => {
    const { project, layer } = session({ permissions: { deny: ["Write(secret.txt)"], ask: ["Write(ask.txt)"] } })
    return Effect.gen(function* () {
      const permissions = yield* Permissions
      yield* (yield* Grants).grant(["Write"])
      expect((yield* permissions.check(write(join(project, "secret.txt"))))._tag).toBe("Deny")
      expect((yield* permissions.check(write(join(project, "ask.txt"))))._tag).toBe("Ask")
      expect((yield* permissions.check(write(join(project, "other.txt"))))._tag).toBe("Allow")
    }).pipe(Effect.provide(layer))
  })

  it.effect("a grant allows only what it is the cause of: a stricter Permissions' other asks stay asks", () => {
    // Permissions that ask about every call: the grant of Write must not let a Read through.
    const strict = Layer.succeed(Permissions, { mode: "default", check: () => Effect.succeed(ask("asked")), prompt: () => Effect.succeed(ask("no")), warnings: [] })
    const { project, layer } = session({}, strict)
    return Effect.gen(function* () {
      const permissions = yield* Permissions
      yield* (yield* Grants).grant(["Write"])
      expect((yield* permissions.check(read(join(project, "a.txt"))))._tag).toBe("Ask")
      expect((yield* permissions.check(write(join(project, "a.txt"))))._tag).toBe("Allow")
    }).pipe(Effect.provide(layer))
  })

  it.effect("a Bash rule granted is matched on the parsed command, not by prefix", () => {
    const { layer } = session({})
    const bash = (command: string): CheckRequest => ({
      toolName: "Bash",
      toolUseId: "b",
      input: { command },
      target: { _tag: "Command", command },
      readOnly: false
    })
    return Effect.gen(function* () {
      const permissions = yield* Permissions
      yield* (yield* Grants).grant(["Bash(git status:*)"])
      expect((yield* permissions.check(bash("git status --short")))._tag).toBe("Allow")
      expect((yield* permissions.check(bash("git status; touch x")))._tag).not.toBe("Allow")
    }).pipe(Effect.provide(layer))
  })
})
