/**
 * A sandboxed shell for tests: a fake home with credentials in it, a workspace (a git repository), and the
 * session's ShellSession started through the real bubblewrap sandbox. Where bubblewrap cannot run (no user
 * namespaces), `sandboxSkip` says why, loudly; under CI it never skips.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { Settings, type SettingsValue } from "../../src/context/Settings.js"
import { ChildEnvironment } from "../../src/platform/ChildEnvironment.js"
import { Credentials } from "../../src/platform/Credentials.js"
import * as ShellCheck from "../../src/permissions/ShellCheck.js"
import * as Sandbox from "../../src/sandbox/Sandbox.js"
import { type RunEvent, ShellSession } from "../../src/tools/ShellSession.js"
import { tempDir, write } from "../support/TempFiles.js"

const detected = Sandbox.detect()

/** Why the sandbox tests skip here (undefined: they run). Never under CI, where bubblewrap is installed. */
export const sandboxSkip: string | undefined = (() => {
  if (!("reason" in detected)) return undefined
  if (process.env["CI"] === "true") return undefined
  const reason = `SANDBOX TESTS SKIPPED: ${detected.reason}`
  console.warn(`\n*** ${reason} ***\n`)
  return reason
})()

export interface World {
  readonly root: string
  readonly home: string
  readonly weftHome: string
  readonly workspace: string
  readonly outside: string
}

export const SECRET = "weft-test-secret-9f2c"

/** A fake home with the default credential paths filled, a git workspace, and a directory beside it. */
export const makeWorld = (): World => {
  const root = tempDir("weft-sandbox-")
  const home = nodePath.join(root, "home")
  const weftHome = nodePath.join(home, ".weft")
  const workspace = nodePath.join(root, "ws")
  const outside = nodePath.join(root, "outside")
  for (const file of [".ssh/id_ed25519", ".aws/credentials", ".netrc", ".claude.json", ".config/gcloud/credentials.db", ".docker/config.json", ".kube/config", ".weft/projects/x.jsonl"]) {
    write(nodePath.join(home, file), `${SECRET} ${file}\n`)
  }
  write(nodePath.join(home, ".bashrc"), "# rc\n")
  write(nodePath.join(outside, "notes.txt"), "outside\n")
  write(nodePath.join(workspace, "README.md"), "hello\n")
  write(nodePath.join(workspace, ".claude", "settings.json"), "{}\n")
  const git = (...args: Array<string>) => spawnSync("git", args, { cwd: workspace, encoding: "utf8", env: gitEnv(home) })
  git("init", "-q")
  git("add", ".")
  git("commit", "-qm", "init")
  return { root, home, weftHome, workspace, outside }
}

/** The environment git runs with in the tests: this process's, a HOME of the test's own and a fixed identity. */
export const gitEnv = (home: string): Record<string, string> => ({ ...stringEnv(process.env), ...gitEnvSet(home) })

const stringEnv = (env: NodeJS.ProcessEnv): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return out
}

/** The session's shell, sandboxed as `sandbox` settings say (enabled unless they say otherwise). */
export const sandboxedShell = (world: World, sandbox: NonNullable<SettingsValue["sandbox"]> = {}, extra: SettingsValue = {}) => {
  const settings = Settings.layerFromValue({ ...extra, sandbox: { enabled: true, ...sandbox } }, { projectDir: world.workspace, home: world.home })
  const sandboxLayer = Sandbox.layer({ workspaces: [world.workspace], weftHome: world.weftHome, matchesPatterns: ShellCheck.matchesPatterns }).pipe(
    Layer.provide(settings)
  )
  const environment = ChildEnvironment.layerWith({ policy: { set: gitEnvSet(world.home) } }).pipe(Layer.provide(Credentials.layer))
  return ShellSession.layer({ cwd: world.workspace, graceMs: 300 }).pipe(
    Layer.provideMerge(sandboxLayer),
    Layer.provide(environment),
    Layer.provide(settings)
  )
}

/** What the tests set for git: a HOME of their own, a fixed identity, no system configuration. */
const gitEnvSet = (home: string): Record<string, string> => ({
  HOME: home,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1"
})

/** Runs `command` in the session's shell: its final event. */
export const run = (command: string, options: { readonly unsandboxed?: boolean; readonly timeoutMs?: number } = {}) =>
  Effect.gen(function* () {
    const shell = yield* ShellSession
    const events = yield* Stream.runCollect(shell.run(command, { timeoutMs: 30_000, ...options }))
    const done = events.find((event): event is Extract<RunEvent, { _tag: "Done" }> => event._tag === "Done")
    if (done === undefined) return yield* Effect.die(new Error("no Done event"))
    return done
  })

/** Writes an executable script into the workspace (what a hostile repository ships). */
export const script = (world: World, name: string, body: string): string => {
  const path = nodePath.join(world.workspace, "scripts", name)
  write(path, `#!/usr/bin/env bash\n${body}\n`)
  fs.chmodSync(path, 0o755)
  return `bash scripts/${name}`
}

/** Processes on the host whose command line contains `marker`. */
export const processesWith = (marker: string): Array<number> => {
  const found: Array<number> = []
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8")
      if (cmdline.includes(marker)) found.push(Number(entry))
    } catch {
      // gone
    }
  }
  return found
}

/**
 * `WEFT_TEST_SANDBOX=1`: the tool suites run their shells in the sandbox (the workspace their `cwd`), to show that
 * ordinary tool work passes with it on: `WEFT_TEST_SANDBOX=1 vitest run test/tools`.
 */
export const sandboxForSuites = process.env["WEFT_TEST_SANDBOX"] === "1"

/** A session shell in `cwd`: sandboxed when `sandboxForSuites`, else as is. */
export const suiteShell = (cwd: string, graceMs = 300) => {
  const shell = ShellSession.layer({ cwd, graceMs }).pipe(Layer.provide(ChildEnvironment.layerNode))
  if (!sandboxForSuites) return shell
  const settings = Settings.layerFromValue({ sandbox: { enabled: true } }, { projectDir: cwd })
  return ShellSession.layer({ cwd, graceMs }).pipe(
    Layer.provideMerge(Sandbox.layer({ workspaces: [cwd] }).pipe(Layer.provide(settings))),
    Layer.provide(ChildEnvironment.layerNode)
  )
}
