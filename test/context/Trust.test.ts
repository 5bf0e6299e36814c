import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Settings } from "../../src/context/Settings.js"
import { claudeCodeRecord, claudeCodeTrusted, isTrusted, revoke, trust, trustedDirectories } from "../../src/context/Trust.js"
import * as McpConfig from "../../src/mcp/McpConfig.js"
import { tempDir, write } from "../support/TempFiles.js"

const fixture = () => {
  const root = tempDir("weft-trust-")
  const f = {
    root,
    home: path.join(root, "home"),
    weftHome: path.join(root, "weft-home"),
    project: path.join(root, "project"),
    managed: path.join(root, "etc", "managed-settings.json")
  }
  fs.mkdirSync(f.project, { recursive: true })
  return f
}

type Fixture = ReturnType<typeof fixture>

const load = (f: Fixture) => Settings.make({ cwd: f.project, home: f.home, weftHome: f.weftHome, managedPaths: [f.managed] })

const claudeJson = (f: Fixture, value: unknown) =>
  write(path.join(f.home, ".claude.json"), typeof value === "string" ? value : JSON.stringify(value))

/** Runs `effect` with the environment variable `name` set to `value` (or unset), restored after. */
const withVariable = <A, E, R>(name: string, value: string | undefined, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const previous = process.env[name]
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
      return previous
    }),
    () => effect,
    (previous) =>
      Effect.sync(() => {
        if (previous === undefined) delete process.env[name]
        else process.env[name] = previous
      })
  )

/** Runs `effect` with CLAUDE_CONFIG_DIR unset: the record read is the fixture's ~/.claude.json. */
const withoutConfigDir = <A, E, R>(effect: Effect.Effect<A, E, R>) => withVariable("CLAUDE_CONFIG_DIR", undefined, effect)

describe("weft's record: trust and revoke", () => {
  it.effect("revoke takes a project off the list (by its real path, through a symlink); the others stay", () => {
    const f = fixture()
    const other = path.join(f.root, "other")
    fs.mkdirSync(other)
    const link = path.join(f.root, "link")
    fs.symlinkSync(f.project, link)
    return Effect.gen(function* () {
      yield* trust(f.weftHome, f.project)
      yield* trust(f.weftHome, other)
      expect(yield* revoke(f.weftHome, link)).toBe(f.project)
      expect(yield* trustedDirectories(f.weftHome)).toEqual([other])
      expect(yield* isTrusted(f.weftHome, f.project)).toBe(false)
      // Not on the list: nothing removed, nothing written.
      expect(yield* revoke(f.weftHome, f.project)).toBeUndefined()
      expect(yield* trustedDirectories(f.weftHome)).toEqual([other])
    })
  })

  it.effect("a directory that no longer exists is revoked by the path it was recorded under", () => {
    const f = fixture()
    const gone = path.join(f.root, "gone")
    fs.mkdirSync(gone)
    return Effect.gen(function* () {
      yield* trust(f.weftHome, gone)
      fs.rmSync(gone, { recursive: true })
      expect(yield* revoke(f.weftHome, gone)).toBe(gone)
      expect(yield* trustedDirectories(f.weftHome)).toEqual([])
    })
  })
})

describe("Claude Code's record (~/.claude.json)", () => {
  it.effect("hasTrustDialogAccepted trusts the project (looked up by real path, or a parent's entry); its approvals apply", () => {
    const f = fixture()
    write(path.join(f.project, ".claude", "settings.json"), JSON.stringify({ env: { A: "1" } }))
    claudeJson(f, {
      projects: {
        [f.project]: {
          hasTrustDialogAccepted: true,
          enabledMcpjsonServers: ["one"],
          disabledMcpjsonServers: ["two"],
          enableAllProjectMcpServers: false
        }
      }
    })
    const link = path.join(f.root, "link")
    fs.symlinkSync(f.project, link)
    return withoutConfigDir(
      Effect.gen(function* () {
        const settings = yield* load(f)
        expect(settings.trusted).toBe(true)
        // The project's own settings now apply.
        expect(settings.value.env).toEqual({ A: "1" })
        expect(McpConfig.projectTrustOf(settings).approvals).toEqual({
          enableAllProjectMcpServers: false,
          enabledMcpjsonServers: ["one"],
          disabledMcpjsonServers: ["two"]
        })
        expect((yield* claudeCodeRecord(f.home, link)).trusted).toBe(true)
        expect((yield* claudeCodeRecord(f.home, path.join(f.project, "sub"))).trusted).toBe(true)
        expect((yield* claudeCodeRecord(f.home, f.project + "-fork")).trusted).toBe(false)
        expect(yield* claudeCodeTrusted(f.home)).toEqual({ path: path.join(f.home, ".claude.json"), directories: [f.project] })
      })
    )
  })

  it.effect("settings scopes come before the record: a --settings refusal wins over an approval made in Claude Code", () => {
    const f = fixture()
    claudeJson(f, { projects: { [f.project]: { hasTrustDialogAccepted: true, enableAllProjectMcpServers: true } } })
    return withoutConfigDir(
      Effect.gen(function* () {
        const settings = yield* Settings.make({
          cwd: f.project,
          home: f.home,
          weftHome: f.weftHome,
          managedPaths: [f.managed],
          flagSettings: JSON.stringify({ disabledMcpjsonServers: ["x"] })
        })
        const approvals = McpConfig.projectTrustOf(settings).approvals
        expect(McpConfig.approved("x", approvals)).toBe(false)
        expect(McpConfig.approved("y", approvals)).toBe(true)
      })
    )
  })

  it.effect("CLAUDE_CONFIG_DIR moves the file, as Claude Code finds it", () => {
    const f = fixture()
    const configDir = path.join(f.root, "claude-config")
    write(path.join(configDir, ".claude.json"), JSON.stringify({ projects: { [f.project]: { hasTrustDialogAccepted: true } } }))
    return withVariable(
      "CLAUDE_CONFIG_DIR",
      configDir,
      Effect.gen(function* () {
        expect((yield* load(f)).trusted).toBe(true)
      })
    )
  })

  it.effect.each([
    { label: "not JSON", file: "{ projects: " },
    { label: "not an object", file: "[1, 2]" },
    { label: "projects is an array", file: (dir: string) => JSON.stringify({ projects: [dir] }) },
    { label: "the entry is a string", file: (dir: string) => JSON.stringify({ projects: { [dir]: "yes" } }) },
    { label: "hasTrustDialogAccepted is a string", file: (dir: string) => JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: "true" } } }) },
    { label: "accepted false", file: (dir: string) => JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: false, enableAllProjectMcpServers: true } } }) }
  ])("a malformed record ($label) neither crashes nor trusts", ({ file }) => {
    const f = fixture()
    claudeJson(f, typeof file === "string" ? file : file(f.project))
    return withoutConfigDir(
      Effect.gen(function* () {
        const settings = yield* load(f)
        expect(settings.trusted).toBe(false)
        expect(settings.value.enableAllProjectMcpServers).toBeUndefined()
      })
    )
  })

  it.effect("an entry whose refusal list cannot be read approves nothing (it could hide a refusal)", () => {
    const f = fixture()
    claudeJson(f, {
      projects: { [f.project]: { hasTrustDialogAccepted: true, enableAllProjectMcpServers: true, disabledMcpjsonServers: "evil" } }
    })
    return withoutConfigDir(
      Effect.gen(function* () {
        const settings = yield* load(f)
        expect(settings.trusted).toBe(true)
        expect(McpConfig.approved("evil", McpConfig.projectTrustOf(settings).approvals)).toBe(false)
        expect(settings.value.enableAllProjectMcpServers).toBeUndefined()
      })
    )
  })
})
