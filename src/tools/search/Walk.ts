/**
 * The directory walker under Glob and the built-in Grep engine: gitignore-aware (`.gitignore`, `.ignore`,
 * `.rgignore` in the tree and in the ancestors: `.ignore`/`.rgignore` up to `/`, `.gitignore` up to the repository
 * root, as ripgrep; precedence .rgignore > .ignore > .gitignore whatever the depth), ripgrep's
 * `--glob` and `--type` filters with ripgrep's precedence, skips hidden entries unless asked or whitelisted,
 * never enters `.git`, never follows symbolic links (as ripgrep without `-L`).
 *
 * It reads the disk through SearchFiles' synchronous calls in time slices: on a tree of 50k small files the
 * threadpool round trip of each async call costs more than the call itself, so the walk runs `SLICE_MS` of sync
 * work, then yields to the event loop (where the fiber can be interrupted) and goes on. No Promise, no thread:
 * interruption lands between slices.
 */
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { IGNORE_FILES, type IgnoreFile, IgnoreRules, type Overrides, parse } from "./Gitignore.js"
import { SearchFiles, type Interface as SearchFilesInterface } from "./SearchFiles.js"

/** How long a slice of synchronous file system work may hold the event loop. */
const SLICE_MS = 8

const yieldToEventLoop: Effect.Effect<void> = Effect.callback<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * Calls `step` until it returns false, yielding to the event loop every few milliseconds. `step` does one small
 * unit of synchronous work (read one directory, search one file). The slice is measured in real time
 * (`performance.now`), not by the Clock service: it bounds how long the thread is held, whatever clock the program
 * runs under (a TestClock stands still, and a walk under it would never yield).
 */
export const loop = (step: () => boolean): Effect.Effect<void> =>
  Effect.suspend(function go(): Effect.Effect<void> {
    const deadline = performance.now() + SLICE_MS
    do {
      if (!step()) return Effect.void
    } while (performance.now() < deadline)
    return Effect.andThen(yieldToEventLoop, Effect.suspend(go))
  })

export interface WalkOptions {
  /** Include entries whose name starts with `.` (never `.git`). Default false, as ripgrep. */
  readonly hidden?: boolean
  /** Respect ignore files. Default true. */
  readonly ignoreFiles?: boolean
  /** ripgrep `--glob` overrides, relative to the root. */
  readonly overrides?: Overrides
  /** ripgrep `--type`: a file must be of the type. */
  readonly fileType?: (name: string) => boolean
}

export interface Visitor<S> {
  /** The state of the root directory (a glob position, nothing, ...). */
  readonly root: S
  /** The state for a subdirectory, or undefined to skip it. `relativePath` is relative to the root, `/`-separated. */
  readonly directory: (parent: S, name: string, relativePath: string) => S | undefined
  /** A file that is not ignored. `path` is absolute. */
  readonly file: (parent: S, name: string, relativePath: string, path: string) => void
}

const readIgnoreRules = (
  files: SearchFilesInterface,
  directory: string,
  names: Iterable<IgnoreFile>,
  ignores: IgnoreRules
): IgnoreRules => {
  let next = ignores
  for (const file of names) {
    const content = files.readText(nodePath.join(directory, file))
    // Absent or unreadable ignore file: as git, carry on without it.
    if (content === undefined) continue
    next = next.push(file, directory, parse(content))
  }
  return next
}

/**
 * The rules of the ignore files in the directories above `root`, as ripgrep reads its parents: `.ignore` and
 * `.rgignore` from every ancestor, `.gitignore` only up to the repository root (the nearest ancestor holding
 * `.git`, or every ancestor when there is none: ripgrep's `--no-require-git`).
 */
export const ancestorIgnores = (files: SearchFilesInterface, root: string): IgnoreRules => {
  const exists = (path: string) => files.kind(path) !== undefined
  const ancestors: Array<{ readonly dir: string; readonly gitignoreCounts: boolean }> = []
  let gitignoreCounts = !exists(nodePath.join(root, ".git"))
  for (let dir = root; dir !== nodePath.dirname(dir); ) {
    dir = nodePath.dirname(dir)
    ancestors.push({ dir, gitignoreCounts })
    if (gitignoreCounts && exists(nodePath.join(dir, ".git"))) gitignoreCounts = false
  }
  let ignores = IgnoreRules.empty
  for (const { dir, gitignoreCounts } of ancestors.reverse()) {
    ignores = readIgnoreRules(files, dir, gitignoreCounts ? IGNORE_FILES : ABOVE_REPOSITORY, ignores)
  }
  return ignores
}

/** The ignore files that still count above the repository root. */
const ABOVE_REPOSITORY: ReadonlyArray<IgnoreFile> = [".rgignore", ".ignore"]

interface Pending<S> {
  readonly path: string
  readonly relativePath: string
  readonly state: S
  readonly ignores: IgnoreRules
}

/** Walks the tree under the absolute directory `root`, calling the visitor for every entry not ignored. */
export const walk = <S>(root: string, visitor: Visitor<S>, options: WalkOptions = {}): Effect.Effect<void, never, SearchFiles> =>
  SearchFiles.use((files) => {
    const hidden = options.hidden ?? false
    const useIgnores = options.ignoreFiles ?? true
    const overrides = options.overrides === undefined || options.overrides.isEmpty ? undefined : options.overrides
    const fileType = options.fileType
    const stack: Array<Pending<S>> = [
      { path: root, relativePath: "", state: visitor.root, ignores: useIgnores ? ancestorIgnores(files, root) : IgnoreRules.empty }
    ]
    return loop(() => {
      const current = stack.pop()
      if (current === undefined) return false
      const entries = files.list(current.path)
      // Unreadable or vanished directory: skipped, as ripgrep does (it only warns).
      if (entries === undefined) return true
      let ignores = current.ignores
      if (useIgnores) {
        let names: Array<IgnoreFile> | undefined
        for (const entry of entries) {
          if (entry.name.charCodeAt(0) !== 46) continue
          const file = IGNORE_FILES.find((name) => name === entry.name)
          if (file !== undefined) (names ??= []).push(file)
        }
        if (names !== undefined) ignores = readIgnoreRules(files, current.path, names, ignores)
      }
      const checkIgnores = !ignores.isEmpty
      for (const entry of entries) {
        const name = entry.name
        if (name === ".git") continue
        let kind = entry.kind
        // Some file systems do not report types in readdir.
        if (kind === "Unknown") kind = files.kindNoFollow(nodePath.join(current.path, name)) ?? "Other"
        if (kind !== "Directory" && kind !== "File") continue
        const isDirectory = kind === "Directory"
        const path = current.path === "/" ? `/${name}` : `${current.path}/${name}`
        const relativePath = current.relativePath === "" ? name : `${current.relativePath}/${name}`
        // ripgrep's precedence: overrides, then ignore files, then type, then hidden (unless whitelisted).
        const override = overrides === undefined ? "none" : overrides.decide(relativePath, name, isDirectory)
        if (override === "ignore") continue
        if (override === "none") {
          let whitelisted = false
          if (checkIgnores) {
            const decision = ignores.decide(path, name, isDirectory)
            if (decision === "ignore") continue
            whitelisted = decision === "include"
          }
          if (fileType !== undefined && !isDirectory) {
            if (!fileType(name)) continue
            whitelisted = true
          }
          if (!whitelisted && !hidden && name.charCodeAt(0) === 46) continue
        }
        if (isDirectory) {
          const state = visitor.directory(current.state, name, relativePath)
          if (state !== undefined) stack.push({ path, relativePath, state, ignores })
        } else {
          visitor.file(current.state, name, relativePath, path)
        }
      }
      return true
    })
  })

/** Compares `/`-separated paths component by component (ripgrep's `--sort path` order). */
export const comparePaths = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    if (x === 47) return -1
    if (y === 47) return 1
    return x - y
  }
  return a.length - b.length
}


