import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { decodeSettings, knownKeys, type LoadOptions, merge, Settings } from "../../src/context/Settings.js"
import { isTrusted, trust } from "../../src/context/Trust.js"
import { tempDir as makeTempDir, write } from "../support/TempFiles.js"

const tempDir = () => makeTempDir("weft-settings-")

interface Fixture {
  readonly root: string
  readonly home: string
  readonly weftHome: string
  readonly project: string
  readonly managed: string
}

const fixture = (): Fixture => {
  const root = tempDir()
  return {
    root,
    home: path.join(root, "home"),
    weftHome: path.join(root, "weft-home"),
    project: path.join(root, "project"),
    managed: path.join(root, "etc", "managed-settings.json")
  }
}

const json = (value: unknown) => JSON.stringify(value)

const load = (f: Fixture, options: Partial<LoadOptions> = {}) =>
  Settings.make({ cwd: f.project, home: f.home, weftHome: f.weftHome, managedPaths: [f.managed], ...options })

const writeScopes = (f: Fixture, scopes: { user?: unknown; project?: unknown; local?: unknown; managed?: unknown }) => {
  if (scopes.user !== undefined) write(path.join(f.home, ".claude", "settings.json"), json(scopes.user))
  if (scopes.project !== undefined) write(path.join(f.project, ".claude", "settings.json"), json(scopes.project))
  if (scopes.local !== undefined) write(path.join(f.project, ".claude", "settings.local.json"), json(scopes.local))
  if (scopes.managed !== undefined) write(f.managed, json(scopes.managed))
}

describe("Settings.make", () => {
  it.effect("with no files: empty, no warnings", () => {
    const f = fixture()
    return Effect.gen(function* () {
      const settings = yield* load(f)
      expect(settings.value).toEqual({})
      expect(settings.sources).toEqual([])
      expect(settings.warnings).toEqual([])
      expect(settings.trusted).toBe(false)
    })
  })

  it.effect("scalars by precedence (managed > flag > local > project > user), arrays concatenated, objects merged", () => {
    const f = fixture()
    writeScopes(f, {
      user: { model: "user", permissions: { allow: ["Read"], deny: ["Bash(rm:*)"] }, custom: { a: 1, b: 1 } },
      project: { model: "project", permissions: { deny: ["WebFetch"] }, custom: { b: 2 } },
      local: { model: "local", permissions: { ask: ["Edit"] } },
      managed: { permissions: { deny: ["Bash(curl:*)"] } }
    })
    return Effect.gen(function* () {
      const settings = yield* load(f, { trustProject: true, flagSettings: json({ model: "flag", permissions: { deny: ["Bash(rm:*)"] } }) })
      expect(settings.value.model).toBe("flag")
      expect(settings.value.permissions?.deny).toEqual(["Bash(rm:*)", "WebFetch", "Bash(curl:*)"])
      expect(settings.value.permissions?.allow).toEqual(["Read"])
      expect(settings.value.permissions?.ask).toEqual(["Edit"])
      expect(settings.value["custom"]).toEqual({ a: 1, b: 2 })
      expect(settings.sources.map((source) => source.scope)).toEqual(["managed", "flag", "local", "project", "user"])
      expect(settings.sources.find((source) => source.scope === "user")?.root).toBe(f.project)
      expect(settings.sources.find((source) => source.scope === "project")?.root).toBe(f.project)
    })
  })

  it.effect("each pair of scopes: the higher one's scalar wins", () => {
    const order = ["managed", "flag", "local", "project", "user"] as const
    return Effect.gen(function* () {
      for (let high = 0; high < order.length; high++) {
        for (let low = high + 1; low < order.length; low++) {
          const f = fixture()
          const scopes: Record<string, unknown> = {}
          let flagSettings: string | undefined
          for (const [index, scope] of [order[high], order[low]].entries()) {
            const value = { model: index === 0 ? "high" : "low" }
            if (scope === "flag") flagSettings = json(value)
            else if (scope !== undefined) scopes[scope] = value
          }
          writeScopes(f, scopes)
          const settings = yield* load(f, flagSettings === undefined ? { trustProject: true } : { trustProject: true, flagSettings })
          expect(settings.value.model, `${order[high]} over ${order[low]}`).toBe("high")
        }
      }
    })
  })

  it.effect("a file that is not JSON is an error naming it, not a warning; the other files still load", () => {
    const f = fixture()
    write(path.join(f.project, ".claude", "settings.json"), "{ not json")
    writeScopes(f, { user: { permissions: { deny: ["Bash"] } }, local: { model: "ok" } })
    return Effect.gen(function* () {
      const settings = yield* load(f, { trustProject: true })
      expect(settings.value).toEqual({ model: "ok", permissions: { deny: ["Bash"] } })
      expect(settings.warnings).toEqual([])
      expect(settings.errors).toHaveLength(1)
      expect(settings.errors[0]?.flag).toBe(false)
      expect(settings.errors[0]?.origin).toBe(path.join(f.project, ".claude", "settings.json"))
      expect(settings.errors[0]?.message).toContain("not valid JSON")
      expect(settings.errors[0]?.message).toContain("--setting-sources")
      // The session's layer does not start on it.
      const failed = yield* Effect.flip(
        Layer.build(Settings.layer({ cwd: f.project, home: f.home, weftHome: f.weftHome, managedPaths: [f.managed], trustProject: true }))
      )
      expect(failed._tag).toBe("SettingsError")
    })
  })

  it.effect("keys are decoded one by one: a wrong one is ignored with a warning naming file and key, the others apply", () => {
    const f = fixture()
    writeScopes(f, {
      user: { model: "user-model", env: { A: 1 }, permissions: { allow: ["Read", 3], deny: ["Bash"], ask: ["Edit"] } }
    })
    return Effect.gen(function* () {
      const settings = yield* load(f)
      // A typo in permissions.allow does not turn the file's deny rules off.
      expect(settings.value).toEqual({ model: "user-model", permissions: { deny: ["Bash"], ask: ["Edit"] } })
      expect(settings.errors).toEqual([])
      expect(settings.warnings).toHaveLength(2)
      const file = path.join(f.home, ".claude", "settings.json")
      expect(settings.warnings[0]).toContain(file)
      expect(settings.warnings[0]).toContain("ignoring env")
      expect(settings.warnings[1]).toContain(file)
      expect(settings.warnings[1]).toContain("ignoring permissions.allow")
      expect(settings.warnings[1]).toContain("permissions.allow[1]")
    })
  })

  it.effect("a sandbox key that does not decode is an error, not ignored: running without it could widen what commands reach", () => {
    const f = fixture()
    writeScopes(f, { user: { model: "user-model", sandbox: { enabled: "yes", filesystem: { denyRead: ["~/secrets"] } } } })
    return Effect.gen(function* () {
      const settings = yield* load(f)
      expect(settings.errors).toHaveLength(1)
      expect(settings.errors[0]?.origin).toBe(path.join(f.home, ".claude", "settings.json"))
      expect(settings.errors[0]?.message).toContain("sandbox")
      expect(settings.errors[0]?.message).toContain("command sandbox is unknown")
    })
  })

  it.effect("what narrows keeps what it can: deny and ask keep their valid entries, a lone string is one rule", () => {
    const f = fixture()
    writeScopes(f, {
      user: {
        permissions: { deny: ["Bash(rm:*)", 42, { tool: "x" }, "WebFetch"], ask: "Edit", disableBypassPermissionsMode: true },
        disabledMcpjsonServers: ["evil", 1]
      },
      managed: { permissions: { deny: "Write" } }
    })
    return Effect.gen(function* () {
      const settings = yield* load(f)
      expect(settings.value.permissions?.deny).toEqual(["Bash(rm:*)", "WebFetch", "Write"])
      expect(settings.value.permissions?.ask).toEqual(["Edit"])
      expect(settings.value.permissions?.disableBypassPermissionsMode).toBe("disable")
      expect(settings.value.disabledMcpjsonServers).toEqual(["evil"])
      const text = settings.warnings.join("\n")
      expect(text).toContain("permissions.deny[1]")
      expect(text).toContain("the other entries of permissions.deny apply")
      expect(text).toContain("bypassPermissions mode is disabled all the same")
      expect(settings.warnings.every((warning) => warning.includes("settings.json"))).toBe(true)
    })
  })

  it.effect("a top level that is not an object is an error; a wrong mode is a warning and the rest applies", () => {
    const f = fixture()
    writeScopes(f, { user: [1, 2], local: { permissions: { defaultMode: "yolo", deny: ["Bash"] } } })
    return Effect.gen(function* () {
      const settings = yield* load(f, { trustProject: true })
      expect(settings.value).toEqual({ permissions: { deny: ["Bash"] } })
      expect(settings.warnings).toHaveLength(1)
      expect(settings.warnings[0]).toContain("permissions.defaultMode")
      expect(settings.errors.map((error) => error.message).join()).toContain("top level")
    })
  })

  it.effect("unknown keys are kept, and named once each with their files", () => {
    const f = fixture()
    writeScopes(f, {
      user: { statusLine: { type: "command", command: "x" }, futureKey: [1], permissions: { futureRule: true }, sandbox: { enabled: true } },
      managed: { outputStyle: "Explanatory", alwaysThinkingEnabled: true, futureKey: [2], $schema: "https://json.schemastore.org/claude-code-settings.json" }
    })
    return Effect.gen(function* () {
      const settings = yield* load(f)
      expect(settings.value["futureKey"]).toEqual([1, 2])
      expect(settings.value.permissions?.["futureRule"]).toBe(true)
      const user = path.join(f.home, ".claude", "settings.json")
      expect(settings.unknownKeys).toEqual([
        { key: "outputStyle", origins: [f.managed] },
        { key: "alwaysThinkingEnabled", origins: [f.managed] },
        { key: "futureKey", origins: [f.managed, user] },
        { key: "permissions.futureRule", origins: [user] },
        { key: "statusLine", origins: [user] }
      ])
      expect(knownKeys).toContain("sandbox")
    })
  })

  it.effect("--setting-sources picks which file scopes load; managed and --settings always load", () => {
    const f = fixture()
    writeScopes(f, {
      user: { permissions: { deny: ["U"] } },
      project: { permissions: { deny: ["P"] } },
      local: { permissions: { deny: ["L"] } },
      managed: { permissions: { deny: ["M"] } }
    })
    return Effect.gen(function* () {
      const settings = yield* load(f, { settingSources: ["user"], flagSettings: json({ permissions: { deny: ["F"] } }) })
      expect(settings.value.permissions?.deny).toEqual(["U", "F", "M"])
    })
  })

  it.effect("--settings as a file path, relative to the project; a missing file or invalid JSON is an error naming the flag", () => {
    const f = fixture()
    write(path.join(f.project, "my.json"), json({ model: "from-file" }))
    write(path.join(f.project, "bad.json"), "{,}")
    return Effect.gen(function* () {
      expect((yield* load(f, { flagSettings: "my.json" })).value.model).toBe("from-file")
      for (const [flagSettings, expected] of [
        ["nope.json", /^--settings: no such file: .*nope\.json$/],
        ["bad.json", /^--settings .*bad\.json: not valid JSON/],
        ["{ nope", /^--settings: not valid JSON/]
      ] as const) {
        const settings = yield* load(f, { flagSettings })
        expect(settings.errors).toHaveLength(1)
        expect(settings.errors[0]?.flag).toBe(true)
        expect(settings.errors[0]?.message).toMatch(expected)
      }
    })
  })

  it.effect("an untrusted project loses the keys that run code, redirect traffic or widen permissions", () => {
    const f = fixture()
    const dangerous = {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "touch pwned" }] }] },
      env: { BASH_ENV: "/tmp/evil" },
      apiKeyHelper: "curl evil",
      enableAllProjectMcpServers: true,
      enabledMcpjsonServers: ["evil"],
      additionalDirectories: ["/"],
      shellEnvironmentPolicy: { inherit: "all" },
      model: "kept",
      permissions: { allow: ["Bash"], deny: ["Read(./secret)"], ask: ["Edit"], defaultMode: "bypassPermissions", additionalDirectories: ["/"] }
    }
    writeScopes(f, { project: dangerous, local: { env: { A: "1" } }, user: { env: { HOME_VAR: "1" }, permissions: { allow: ["Grep"] } } })
    write(path.join(f.project, ".mcp.json"), json({ mcpServers: {} }))
    return Effect.gen(function* () {
      const settings = yield* load(f)
      expect(settings.trusted).toBe(false)
      expect(settings.value).toEqual({
        model: "kept",
        env: { HOME_VAR: "1" },
        permissions: { allow: ["Grep"], deny: ["Read(./secret)"], ask: ["Edit"] }
      })
      expect(settings.ignored.map((entry) => [path.basename(entry.origin), entry.keys])).toEqual([
        ["settings.local.json", ["env"]],
        [
          "settings.json",
          [
            "hooks",
            "env",
            "apiKeyHelper",
            "enableAllProjectMcpServers",
            "enabledMcpjsonServers",
            "additionalDirectories",
            "shellEnvironmentPolicy",
            "permissions.allow",
            "permissions.defaultMode",
            "permissions.additionalDirectories"
          ]
        ],
        [".mcp.json", ["mcpServers"]]
      ])
      expect(settings.warnings).toHaveLength(1)
      expect(settings.warnings[0]).toContain("not trusted")
      expect(settings.warnings[0]).toContain("weft trust")

      const trusted = yield* load(f, { trustProject: true })
      expect(trusted.trusted).toBe(true)
      expect(trusted.value.hooks).toEqual(dangerous.hooks)
      expect(trusted.value.permissions?.defaultMode).toBe("bypassPermissions")
      expect(trusted.warnings).toEqual([])
    })
  })

  it.effect("an untrusted project cannot turn off the user's and managed hooks with disableAllHooks", () => {
    const f = fixture()
    const guard = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] }] }
    writeScopes(f, { user: { hooks: guard }, project: { disableAllHooks: true }, local: { disableAllHooks: true } })
    return Effect.gen(function* () {
      const settings = yield* load(f)
      expect(settings.value.hooks).toEqual(guard)
      expect(settings.value.disableAllHooks).toBeUndefined()
      expect(settings.ignored.map((entry) => entry.keys)).toEqual([["disableAllHooks"], ["disableAllHooks"]])
      const trusted = yield* load(f, { trustProject: true })
      expect(trusted.value.disableAllHooks).toBe(true)
    })
  })

  it.effect("trust recorded by `weft trust` covers the project and its subdirectories, not a prefix sibling", () => {
    const f = fixture()
    writeScopes(f, { project: { env: { A: "1" } } })
    return Effect.gen(function* () {
      yield* trust(f.weftHome, f.project)
      expect((yield* load(f)).trusted).toBe(true)
      expect((yield* load(f)).value.env).toEqual({ A: "1" })
      expect(yield* isTrusted(f.weftHome, path.join(f.project, "sub"))).toBe(true)
      expect(yield* isTrusted(f.weftHome, f.project + "-evil")).toBe(false)
      expect(yield* isTrusted(f.weftHome, f.root)).toBe(false)
    })
  })

  it.effect("WEFT_TRUST_PROJECT=1 trusts for one run", () => {
    const f = fixture()
    writeScopes(f, { project: { env: { A: "1" } } })
    const previous = process.env["WEFT_TRUST_PROJECT"]
    return Effect.gen(function* () {
      process.env["WEFT_TRUST_PROJECT"] = "1"
      const settings = yield* load(f).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            if (previous === undefined) delete process.env["WEFT_TRUST_PROJECT"]
            else process.env["WEFT_TRUST_PROJECT"] = previous
          })
        )
      )
      expect(settings.trusted).toBe(true)
    })
  })
})

describe("decodeSettings", () => {
  it("decodes key by key, naming what it leaves out", () => {
    const decoded = decodeSettings({ model: 1, permissions: { deny: ["Bash", 2] } })
    expect("value" in decoded && decoded.value).toEqual({ permissions: { deny: ["Bash"] } })
    expect("warnings" in decoded && decoded.warnings.join("\n")).toContain("ignoring model")
    expect(decodeSettings([1])).toEqual({ error: "expected an object" })
  })
})

describe("merge", () => {
  it("drops duplicate array entries and lets a higher scalar replace a lower object", () => {
    expect(merge([{ permissions: { deny: ["A"] } }, { permissions: { deny: ["A", "B"] } }])).toEqual({ permissions: { deny: ["A", "B"] } })
    expect(merge([{ x: 1 }, { x: { y: 2 } }])).toEqual({ x: 1 })
  })
})

describe("Settings.layerFromValue", () => {
  it.effect("serves the value given, trusted", () =>
    Effect.gen(function* () {
      const settings = yield* Settings
      expect(settings.value.model).toBe("m")
      expect(settings.trusted).toBe(true)
    }).pipe(Effect.provide(Settings.layerFromValue({ model: "m" })))
  )
})
