import { describe, expect, it } from "@effect/vitest"
import { Settings, type Source } from "../../src/context/Settings.js"
import * as Sandbox from "../../src/sandbox/Sandbox.js"
import * as SandboxConfig from "../../src/sandbox/SandboxConfig.js"

const settings = (sources: ReadonlyArray<Source>) => ({ ...Settings.empty("/p"), home: "/h", sources })
const source = (scope: Source["scope"], value: Source["settings"]): Source => ({ scope, origin: `${scope}.json`, root: "/p", settings: value })

describe("SandboxConfig", () => {
  it("is off unless a scope or the flag turns it on; weft's defaults refuse when it cannot start", () => {
    expect(SandboxConfig.fromSettings(settings([])).enabled).toBe(false)
    const flagged = SandboxConfig.fromSettings(settings([]), { flag: true })
    expect(flagged).toMatchObject({ enabled: true, failIfUnavailable: true, autoAllowBashIfSandboxed: false, allowUnsandboxedCommands: true })
  })

  it("a user's settings set every key; paths resolve from home and the project", () => {
    const config = SandboxConfig.fromSettings(
      settings([
        source("user", {
          sandbox: {
            enabled: true,
            failIfUnavailable: false,
            autoAllowBashIfSandboxed: true,
            excludedCommands: ["docker:*"],
            network: { allowedDomains: ["example.com"], allowAllUnixSockets: true },
            filesystem: { allowWrite: ["~/.cache/x", "build"], allowRead: ["//etc/x"] }
          }
        })
      ])
    )
    expect(config).toMatchObject({ enabled: true, failIfUnavailable: false, autoAllowBashIfSandboxed: true, excludedCommands: ["docker:*"] })
    expect(config.network).toMatchObject({ allowedDomains: ["example.com"], allowAllUnixSockets: true })
    expect(config.filesystem.allowWrite).toEqual(["/h/.cache/x", "/p/build"])
    expect(config.filesystem.allowRead).toEqual(["/etc/x"])
    expect(config.warnings).toEqual([])
  })

  it("a project's own settings turn it on and tighten it, never loosen it", () => {
    const config = SandboxConfig.fromSettings(
      settings([
        source("local", { sandbox: { enabled: false, allowUnsandboxedCommands: false } }),
        source("project", {
          sandbox: {
            enabled: true,
            failIfUnavailable: false,
            autoAllowBashIfSandboxed: true,
            excludedCommands: ["curl:*"],
            network: { allowedDomains: ["evil.test"], deniedDomains: ["tracker.test"], allowAllUnixSockets: true, strictAllowlist: true },
            filesystem: { allowWrite: ["/"], allowRead: ["~/.ssh"], denyRead: ["secrets"], denyWrite: ["~/x"] }
          }
        }),
        source("user", { sandbox: { enabled: false, autoAllowBashIfSandboxed: true } })
      ])
    )
    expect(config.enabled).toBe(true)
    expect(config.failIfUnavailable).toBe(true)
    // The user's own autoAllow stands; the project's adds nothing.
    expect(config.autoAllowBashIfSandboxed).toBe(true)
    expect(config.allowUnsandboxedCommands).toBe(false)
    expect(config.excludedCommands).toEqual([])
    expect(config.network).toMatchObject({ allowedDomains: [], deniedDomains: ["tracker.test"], allowAllUnixSockets: false, strictAllowlist: true })
    expect(config.filesystem).toMatchObject({ allowWrite: [], allowRead: [], denyRead: ["/p/secrets"], denyWrite: ["/h/x"] })
    expect(config.warnings.join("\n")).toContain("project.json")
    expect(config.warnings.join("\n")).toContain("network.allowedDomains")
    expect(config.warnings.join("\n")).toContain("enabled: false")
  })

  it("isEnabled answers what fromSettings does", () => {
    const cases: ReadonlyArray<ReadonlyArray<Source>> = [
      [],
      [source("user", { sandbox: { enabled: true } })],
      [source("project", { sandbox: { enabled: false } }), source("user", { sandbox: { enabled: true } })],
      [source("local", { sandbox: { enabled: true } }), source("user", { sandbox: { enabled: false } })],
      [source("flag", { sandbox: { enabled: false } }), source("user", { sandbox: { enabled: true } })],
      [source("managed", { sandbox: {} }), source("user", { sandbox: { enabled: true } })]
    ]
    for (const sources of cases) {
      for (const flag of [undefined, true]) {
        expect(SandboxConfig.isEnabled(settings(sources), flag)).toBe(SandboxConfig.fromSettings(settings(sources), flag === undefined ? {} : { flag }).enabled)
      }
    }
    expect(cases.map((sources) => SandboxConfig.isEnabled(settings(sources), undefined))).toEqual([false, true, true, true, false, true])
  })

  it("sandbox.hooks: a project may turn it on, not off", () => {
    expect(SandboxConfig.fromSettings(settings([source("project", { sandbox: { enabled: true, hooks: true } })])).hooks).toBe(true)
    const off = SandboxConfig.fromSettings(settings([source("project", { sandbox: { hooks: false } }), source("user", { sandbox: { enabled: true, hooks: true } })]))
    expect(off.hooks).toBe(true)
    expect(off.warnings.join("\n")).toContain("hooks: false")
    expect(SandboxConfig.fromSettings(settings([source("user", { sandbox: { enabled: true } })])).hooks).toBe(false)
  })

  it("a project's autoAllowBashIfSandboxed: false wins over a user's true", () => {
    const config = SandboxConfig.fromSettings(
      settings([source("project", { sandbox: { autoAllowBashIfSandboxed: false } }), source("user", { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } })])
    )
    expect(config.autoAllowBashIfSandboxed).toBe(false)
  })

  it("permission rules feed the lists: Edit allow/deny, Read deny, WebFetch domains; a project's allow rules do not", () => {
    const config = SandboxConfig.fromSettings(
      settings([
        source("project", { permissions: { allow: ["Edit(//srv/www/**)", "WebFetch(domain:evil.test)"], deny: ["Read(~/.secrets/**)"] } }),
        source("user", {
          permissions: {
            allow: ["Edit(~/notes/**)", "Edit(*.ts)", "WebFetch(domain:docs.example.com)", "Bash(ls)"],
            deny: ["Edit(/vendor/**)", "WebFetch(domain:bad.test)", "Read(**/.env)"]
          }
        })
      ]),
      { cliAllowed: ["Edit(//opt/out)"], cliDenied: ["Read(./private)"] }
    )
    expect(config.filesystem.allowWrite).toEqual(["/h/notes", "/opt/out"])
    expect(config.filesystem.denyWrite).toEqual(["/p/vendor"])
    expect(config.filesystem.denyRead).toEqual(["/h/.secrets", "/p/private"])
    expect(config.network.allowedDomains).toEqual(["docs.example.com"])
    expect(config.network.deniedDomains).toEqual(["bad.test"])
  })

  it("a rule over the whole file system is no mount", () => {
    expect(SandboxConfig.rulePath("//**", "/p", "/h")).toBeUndefined()
    expect(SandboxConfig.rulePath("**/x", "/p", "/h")).toBeUndefined()
    expect(SandboxConfig.rulePath("/src/*.ts", "/p", "/h")).toBe("/p/src")
  })
})

describe("Sandbox.refusedWrites", () => {
  it("names the paths of the common 'Read-only file system' messages, once each, and nothing else", () => {
    const output = [
      "bash: /home/u/.bashrc: Read-only file system",
      "touch: cannot touch '/tmp/x': Read-only file system",
      "OSError: [Errno 30] Read-only file system: '/etc/hosts'",
      "Error: EROFS: read-only file system, open '/home/u/.npmrc'",
      "bash: /home/u/.bashrc: Read-only file system",
      "cat: /home/u/.ssh/id: No such file or directory",
      "all good"
    ].join("\n")
    expect(Sandbox.refusedWrites(output)).toEqual(["/home/u/.bashrc", "/tmp/x", "/etc/hosts", "/home/u/.npmrc"])
    expect(Sandbox.refusedWrites("no refusal here\n")).toEqual([])
  })
})
