/**
 * Facts about where the session runs, for the system prompt's `<env>` block: working directory, git, OS, date,
 * extra directories (`--add-dir`). Gathered once at start-up by reading files only: `.git/HEAD` is read
 * directly rather than spawning git, which would cost tens of milliseconds on the `weft -p` path.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as os from "node:os"
import { probe } from "../platform/FileProbe.js"

export interface Interface {
  /** Absolute working directory. */
  readonly cwd: string
  /** `process.platform`: linux, darwin, win32, ... */
  readonly platform: string
  /** Kernel name and release, e.g. `Linux 6.8.0-45-generic`. */
  readonly osVersion: string
  /** Local date, YYYY-MM-DD. */
  readonly today: string
  readonly isGitRepo: boolean
  /** The checked-out branch; none outside a repository or on a detached HEAD. */
  readonly gitBranch: Option.Option<string>
  /** Absolute paths given with `--add-dir`. */
  readonly additionalDirectories: ReadonlyArray<string>
}

export interface Options {
  readonly cwd: string
  /** `--add-dir` values, relative to `cwd` unless absolute. */
  readonly additionalDirectories?: ReadonlyArray<string>
}

/** YYYY-MM-DD in local time (what "today" means to the person at the keyboard). */
export const formatDate = (date: Date): string => {
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** The branch named by the text of a HEAD file (`ref: refs/heads/main`); none for a detached HEAD. */
export const branchFromHead = (head: string): Option.Option<string> => {
  const match = /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(head)
  return match?.[1] === undefined ? Option.none() : Option.some(match[1])
}

export interface GitInfo {
  readonly isGitRepo: boolean
  readonly gitBranch: Option.Option<string>
}

/**
 * Finds the repository containing `cwd` by walking up to the nearest `.git` (a directory, or a file holding
 * `gitdir: <path>` in worktrees and submodules) and reads its HEAD. Never fails: unreadable means "not a repo".
 */
export const readGit = (cwd: string): Effect.Effect<GitInfo, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const notRepo: GitInfo = { isGitRepo: false, gitBranch: Option.none() }
    // The nearest ancestor with a `.git` (a directory, or a file in worktrees and submodules).
    let dir = path.resolve(cwd)
    let kind = yield* probe(path.join(dir, ".git"))
    while (kind === undefined) {
      const parent = path.dirname(dir)
      if (parent === dir) return notRepo
      dir = parent
      kind = yield* probe(path.join(dir, ".git"))
    }
    const dotGit = path.join(dir, ".git")
    let gitDir = dotGit
    if (kind === "File") {
      const pointer = yield* Effect.option(fs.readFileString(dotGit))
      const match = Option.flatMap(pointer, (text) => Option.fromNullishOr(/^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1]))
      if (Option.isNone(match)) return notRepo
      gitDir = path.resolve(dir, match.value)
    }
    const head = yield* Effect.option(fs.readFileString(path.join(gitDir, "HEAD")))
    if (Option.isNone(head)) return notRepo
    return { isGitRepo: true, gitBranch: branchFromHead(head.value) }
  })

export const make = (options: Options): Effect.Effect<Interface, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    const cwd = path.resolve(options.cwd)
    const git = yield* readGit(cwd)
    const now = yield* Clock.currentTimeMillis
    return {
      cwd,
      platform: process.platform,
      osVersion: `${os.type()} ${os.release()}`,
      today: formatDate(new Date(now)),
      isGitRepo: git.isGitRepo,
      gitBranch: git.gitBranch,
      additionalDirectories: (options.additionalDirectories ?? []).map((dir) => path.resolve(cwd, dir))
    }
  })

export class Environment extends Context.Service<Environment, Interface>()("weft/Environment") {
  static make = make

  static layer = (options: Options): Layer.Layer<Environment, never, FileSystem.FileSystem | Path.Path> =>
    Layer.effect(Environment, make(options))

  /** `layer` on Node's file system: needs nothing. */
  static layerNode = (options: Options): Layer.Layer<Environment> =>
    Environment.layer(options).pipe(Layer.provide([NodeFileSystem.layer, NodePath.layer]))

  /** Fixed values, for tests; anything not given has a deterministic default. */
  static layerStatic = (values: Partial<Interface> = {}): Layer.Layer<Environment> =>
    Layer.succeed(Environment, {
      cwd: "/workspace",
      platform: "linux",
      osVersion: "Linux 6.0.0",
      today: "2025-01-01",
      isGitRepo: false,
      gitBranch: Option.none(),
      additionalDirectories: [],
      ...values
    })
}

// The entry points at the module's top level: `import { Environment } from "weft"` reads `Environment.layer...(...)`, and
// `Environment.Environment` is the Tag (`yield* Environment.Environment`).
export const layer = Environment.layer
export const layerNode = Environment.layerNode
export const layerStatic = Environment.layerStatic
