/**
 * Permissions with the OS sandbox on: `autoAllowBashIfSandboxed` (a command needing no rule beyond the sandbox runs
 * without asking, except where a deny or ask rule or a protected path says otherwise) and `dangerouslyDisableSandbox`
 * (always a question, unless bypassPermissions; refused when the settings forbid unsandboxed commands).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { Settings, type SettingsValue } from "../../src/context/Settings.js"
import { type PermissionMode, Permissions } from "../../src/permissions/Permissions.js"
import * as Sandbox from "../../src/sandbox/Sandbox.js"
import * as SandboxConfig from "../../src/sandbox/SandboxConfig.js"
import { tempDir } from "../support/TempFiles.js"

const sandboxOn = (config: Partial<SandboxConfig.Config>, excluded: ReadonlyArray<string> = []): Sandbox.Interface => ({
  ...Sandbox.none,
  state: { _tag: "On" },
  config: { ...SandboxConfig.disabled, enabled: true, ...config },
  excludes: (command) => Effect.succeed(excluded.includes(command))
})

interface Case {
  readonly command: string
  readonly input?: Record<string, unknown>
  readonly mode?: PermissionMode
  readonly settings?: SettingsValue
  readonly sandbox?: Sandbox.Interface
}

const decide = (test: Case) =>
  Effect.gen(function* () {
    const root = tempDir("weft-perms-")
    const project = nodePath.join(root, "proj")
    fs.mkdirSync(project)
    const settings = Settings.fromValue(test.settings ?? {}, { projectDir: project, home: nodePath.join(root, "home") })
    const permissions = yield* Permissions.make(test.mode === undefined ? {} : { mode: test.mode }).pipe(
      Effect.provide(Layer.succeed(Settings, settings)),
      Effect.provide(Layer.succeed(Sandbox.Sandbox, test.sandbox ?? Sandbox.none))
    )
    const decision = yield* permissions.check({
      toolName: "Bash",
      toolUseId: "t",
      input: { command: test.command, ...test.input },
      target: { _tag: "Command", command: test.command },
      readOnly: false
    })
    return decision
  })

const auto = sandboxOn({ autoAllowBashIfSandboxed: true })

describe("Permissions with the sandbox", () => {
  it.effect("autoAllowBashIfSandboxed: a command no rule covers runs without asking", () =>
    Effect.gen(function* () {
      expect((yield* decide({ command: "npm test" }))._tag).toBe("Ask")
      expect((yield* decide({ command: "npm test", sandbox: sandboxOn({}) }))._tag).toBe("Ask")
      expect((yield* decide({ command: "npm test", sandbox: auto }))._tag).toBe("Allow")
      expect((yield* decide({ command: "make && ./build.sh", sandbox: auto }))._tag).toBe("Allow")
    })
  )

  it.effect("autoAllowBashIfSandboxed: deny and ask rules, protected paths and plan mode still hold", () =>
    Effect.gen(function* () {
      const denied = yield* decide({ command: "npm test", sandbox: auto, settings: { permissions: { deny: ["Bash(npm test)"] } } })
      expect(denied._tag).toBe("Deny")
      const asked = yield* decide({ command: "npm publish", sandbox: auto, settings: { permissions: { ask: ["Bash(npm publish:*)"] } } })
      expect(asked._tag).toBe("Ask")
      expect((yield* decide({ command: "echo x > .claude/settings.json", sandbox: auto }))._tag).toBe("Ask")
      expect((yield* decide({ command: "npm test > .git/hooks/pre-commit", sandbox: auto }))._tag).toBe("Ask")
      expect((yield* decide({ command: "npm test", sandbox: auto, mode: "plan" }))._tag).toBe("Deny")
    })
  )

  it.effect("autoAllowBashIfSandboxed does not cover an excluded command (it runs outside the sandbox)", () =>
    Effect.gen(function* () {
      const excluded = sandboxOn({ autoAllowBashIfSandboxed: true, excludedCommands: ["docker:*"] }, ["docker ps"])
      expect((yield* decide({ command: "docker ps", sandbox: excluded }))._tag).toBe("Ask")
      expect((yield* decide({ command: "npm test", sandbox: excluded }))._tag).toBe("Allow")
    })
  )

  it.effect("dangerouslyDisableSandbox is a question, even for an allowed command; bypassPermissions honours it", () =>
    Effect.gen(function* () {
      const input = { dangerouslyDisableSandbox: true }
      const allowed = { permissions: { allow: ["Bash(npm test)"] } }
      expect((yield* decide({ command: "npm test", sandbox: sandboxOn({}), settings: allowed }))._tag).toBe("Allow")
      const escaping = yield* decide({ command: "npm test", input, sandbox: sandboxOn({}), settings: allowed })
      expect(escaping).toMatchObject({ _tag: "Ask", reason: expect.stringContaining("outside the sandbox") })
      expect((yield* decide({ command: "npm test", input, sandbox: auto }))._tag).toBe("Ask")
      expect((yield* decide({ command: "npm test", input, sandbox: sandboxOn({}), mode: "dontAsk" }))._tag).toBe("Deny")
      expect((yield* decide({ command: "npm test", input, sandbox: sandboxOn({}), mode: "bypassPermissions" }))._tag).toBe("Allow")
      // With the sandbox off there is nothing to leave: the field changes nothing.
      expect((yield* decide({ command: "npm test", input, settings: allowed }))._tag).toBe("Allow")
    })
  )

  it.effect("allowUnsandboxedCommands: false refuses dangerouslyDisableSandbox in every mode", () =>
    Effect.gen(function* () {
      const strict = sandboxOn({ allowUnsandboxedCommands: false })
      const refused = yield* decide({ command: "npm test", input: { dangerouslyDisableSandbox: true }, sandbox: strict, mode: "bypassPermissions" })
      expect(refused).toMatchObject({ _tag: "Deny", reason: expect.stringContaining("allowUnsandboxedCommands") })
    })
  )
})
