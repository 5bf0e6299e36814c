import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { join } from "node:path"
import { Settings, type SettingsValue } from "../../src/context/Settings.js"
import * as Grants from "../../src/extensions/Grants.js"
import { type CheckRequest, Permissions } from "../../src/permissions/Permissions.js"
import { tempDir } from "../support/TempFiles.js"

const write = (path: string): CheckRequest => ({
  toolName: "Write",
  toolUseId: "t1",
  input: { file_path: path },
  target: { _tag: "Path", path, access: "write" },
  readOnly: false
})
const bash = (command: string): CheckRequest => ({
  toolName: "Bash",
  toolUseId: "b",
  input: { command },
  target: { _tag: "Command", command },
  readOnly: false
})

/** The real Permissions of a project with `settings`. */
const permissionsOf = (settings: SettingsValue) => {
  const project = tempDir()
  const permissions = Permissions.make().pipe(
    Effect.provideService(Settings, Settings.fromValue(settings, { projectDir: project, home: tempDir() }))
  )
  return { project, permissions }
}

describe("Grants.grant", () => {
  it.effect("a granted rule allows what the session would ask about, from then on", () => {
    const { project, permissions } = permissionsOf({})
    return Effect.gen(function* () {
      const session = yield* permissions
      expect((yield* session.check(write(join(project, "a.txt"))))._tag).toBe("Ask")
      yield* Grants.grant(session, ["Write"], "/stamp")
      expect((yield* session.check(write(join(project, "a.txt"))))._tag).toBe("Allow")
    })
  })

  it.effect("a deny rule and an ask rule win over a grant", () => {
    const { project, permissions } = permissionsOf({ permissions: { deny: ["Write(secret.txt)"], ask: ["Write(ask.txt)"] } })
    return Effect.gen(function* () {
      const session = yield* permissions
      yield* Grants.grant(session, ["Write"], "/stamp")
      expect((yield* session.check(write(join(project, "secret.txt"))))._tag).toBe("Deny")
      expect((yield* session.check(write(join(project, "ask.txt"))))._tag).toBe("Ask")
      expect((yield* session.check(write(join(project, "other.txt"))))._tag).toBe("Allow")
    })
  })

  it.effect("a Bash rule granted is matched on the parsed command, not by prefix", () => {
    const { permissions } = permissionsOf({})
    return Effect.gen(function* () {
      const session = yield* permissions
      yield* Grants.grant(session, ["Bash(git status:*)"], "/status")
      expect((yield* session.check(bash("git status --short")))._tag).toBe("Allow")
      expect((yield* session.check(bash("git status; touch x")))._tag).not.toBe("Allow")
    })
  })

  it.effect("permissions that take no rules at run time grant nothing, and say so", () =>
    Effect.gen(function* () {
      const fixed = Permissions.permissive({ mode: "default" })
      // No failure, no defect: the run goes on without the grant.
      yield* Grants.grant(fixed, ["Write"], "/stamp")
    }))
})
