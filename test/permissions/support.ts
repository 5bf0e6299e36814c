/** A project, a home and a weft home in a temp dir, with settings files per scope, for permission tables. */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Settings } from "../../src/context/Settings.js"
import type * as BashCheck from "../../src/permissions/BashCheck.js"
import { type CheckRequest, type Decision, Permissions, type PermissionMode } from "../../src/permissions/Permissions.js"
import type { ToolTarget } from "../../src/domain/ToolTarget.js"
import { tempDir, write } from "../support/TempFiles.js"

export type Expected = "allow" | "ask" | "deny"
export type ScopeName = "managed" | "flag" | "local" | "project" | "user"

export interface Case {
  readonly name: string
  readonly tool: string
  /** `$P` is the project, `$H` home, `$R` the temp root, `$W` weft's home. */
  readonly path?: string
  readonly access?: "read" | "write"
  readonly command?: string
  readonly url?: string
  readonly readOnly?: boolean
  readonly mode?: PermissionMode
  readonly settings?: Partial<Record<ScopeName, unknown>>
  readonly allowedTools?: ReadonlyArray<string>
  readonly disallowedTools?: ReadonlyArray<string>
  readonly trusted?: boolean
  /** Makes files and links under the fixture (paths with the same placeholders). */
  readonly files?: ReadonlyArray<string>
  readonly links?: ReadonlyArray<readonly [link: string, target: string]>
  readonly expect: Expected
}

export interface Fixture {
  readonly root: string
  readonly project: string
  readonly home: string
  readonly weftHome: string
}

export const makeFixture = (): Fixture => {
  const root = tempDir("weft-perms-")
  const fixture = { root, project: path.join(root, "proj"), home: path.join(root, "home"), weftHome: path.join(root, "home", ".weft") }
  fs.mkdirSync(fixture.project, { recursive: true })
  fs.mkdirSync(fixture.weftHome, { recursive: true })
  return fixture
}

export const expand = (fixture: Fixture, text: string): string =>
  text.replaceAll("$P", fixture.project).replaceAll("$H", fixture.home).replaceAll("$W", fixture.weftHome).replaceAll("$R", fixture.root)

const readOnlyTools = new Set(["Read", "Glob", "Grep", "WebFetch", "BashOutput"])

export const targetOf = (fixture: Fixture, test: Case): ToolTarget => {
  if (test.command !== undefined) return { _tag: "Command", command: expand(fixture, test.command) }
  if (test.url !== undefined) return { _tag: "Url", url: test.url }
  if (test.path !== undefined) {
    const access = test.access ?? (readOnlyTools.has(test.tool) ? "read" : "write")
    return { _tag: "Path", path: expand(fixture, test.path), access }
  }
  return { _tag: "None" }
}

export const decisionOf = (test: Case, bash?: BashCheck.Interface): Effect.Effect<Decision & { readonly warnings: ReadonlyArray<string> }> =>
  Effect.gen(function* () {
    const fixture = makeFixture()
    for (const file of test.files ?? []) write(expand(fixture, file), "x")
    for (const [link, target] of test.links ?? []) {
      const at = expand(fixture, link)
      fs.mkdirSync(path.dirname(at), { recursive: true })
      fs.symlinkSync(expand(fixture, target), at)
    }
    const settingsFiles = test.settings ?? {}
    const json = (value: unknown) => expand(fixture, JSON.stringify(value))
    const managed = path.join(fixture.root, "etc", "managed-settings.json")
    if (settingsFiles.managed !== undefined) write(managed, json(settingsFiles.managed))
    if (settingsFiles.user !== undefined) write(path.join(fixture.home, ".claude", "settings.json"), json(settingsFiles.user))
    if (settingsFiles.project !== undefined) write(path.join(fixture.project, ".claude", "settings.json"), json(settingsFiles.project))
    if (settingsFiles.local !== undefined) write(path.join(fixture.project, ".claude", "settings.local.json"), json(settingsFiles.local))
    const settings = yield* Settings.make({
      cwd: fixture.project,
      home: fixture.home,
      weftHome: fixture.weftHome,
      managedPaths: [managed],
      trustProject: test.trusted ?? true,
      ...(settingsFiles.flag !== undefined ? { flagSettings: json(settingsFiles.flag) } : {})
    })
    const permissions = yield* Permissions.make({
      weftHome: fixture.weftHome,
      ...(test.mode !== undefined ? { mode: test.mode } : {}),
      ...(test.allowedTools !== undefined ? { allowedTools: test.allowedTools.map((rule) => expand(fixture, rule)) } : {}),
      ...(test.disallowedTools !== undefined ? { disallowedTools: test.disallowedTools.map((rule) => expand(fixture, rule)) } : {}),
      ...(bash !== undefined ? { bash } : {})
    }).pipe(Effect.provideService(Settings, settings))
    const request: CheckRequest = {
      toolName: test.tool,
      toolUseId: "toolu_1",
      input: {},
      target: targetOf(fixture, test),
      readOnly: test.readOnly ?? readOnlyTools.has(test.tool)
    }
    const decision = yield* permissions.check(request)
    return { ...decision, warnings: [...settings.warnings, ...permissions.warnings] }
  })

export const verdict = (decision: Decision): Expected =>
  decision._tag === "Allow" ? "allow" : decision._tag === "Ask" ? "ask" : "deny"
