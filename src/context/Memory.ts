/**
 * Memory files, found as Claude Code finds them, so a project's existing `.claude/` setup just works:
 *   - user: `~/.claude/CLAUDE.md`
 *   - project: in every directory from the filesystem root down to the cwd (nearest last), `CLAUDE.md` and
 *     `.claude/CLAUDE.md`, or `AGENTS.md` in a directory that has neither
 *   - local: `CLAUDE.local.md` in those same directories (private, not checked in)
 * A file may import others with `@path` (relative to the importing file, `~/` for home, or absolute), up to
 * 5 levels deep; imports inside code spans and blocks are text, not imports; a file already loaded (a cycle,
 * a diamond) is not loaded again. Each file is listed right after the file that imported it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { homedir } from "node:os"
import { probe } from "../platform/FileProbe.js"

export type MemoryScope = "user" | "project" | "local"

export interface MemoryFile {
  /** Absolute path. */
  readonly path: string
  readonly scope: MemoryScope
  /** The file's text; "" when it was skipped (see `skipped`). */
  readonly content: string
  /** The file whose `@path` import brought this one in. */
  readonly importedFrom?: string
  /** Why the content was left out (too large), for a note in the prompt. */
  readonly skipped?: string
}

export interface Options {
  readonly cwd: string
  /** The user's home directory (for `~/.claude/CLAUDE.md` and `@~/` imports); default the OS's. */
  readonly home?: string
  /** Files longer than this many characters are skipped with a note. Default 40,000. */
  readonly maxChars?: number
}

export const defaultMaxChars = 40_000
export const maxImportDepth = 5
/** However the imports fan out, no more files than this are loaded. */
export const maxFiles = 100

export interface Interface {
  readonly files: ReadonlyArray<MemoryFile>
}

/**
 * The `@path` imports of a memory file, in order, with code blocks and code spans left out (an `@decorator`
 * in an example is not an import). An import starts at the line start or after whitespace (so an email address
 * is not one); `\ ` escapes a space. Targets that are no file are dropped by the loader.
 */
export const findImports = (content: string): ReadonlyArray<string> => {
  const prose = content
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm, "")
    .replace(/(`+)[^`]*?\1/g, "")
  const imports: Array<string> = []
  for (const match of prose.matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
    const raw = match[1]
    if (raw === undefined) continue
    const target = raw.replace(/\\ /g, " ")
    if (target.startsWith("@")) continue
    imports.push(target)
  }
  return imports
}

export const load = (options: Options): Effect.Effect<ReadonlyArray<MemoryFile>, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const home = path.resolve(options.home ?? homedir())
    const maxChars = options.maxChars ?? defaultMaxChars
    const cwd = path.resolve(options.cwd)
    const files: Array<MemoryFile> = []
    const seen = new Set<string>()

    const isFile = (file: string) => Effect.map(probe(file), (kind) => kind === "File")

    // The canonical path, so a file reached twice through a symlink or `..` is loaded once.
    const canonical = (file: string) => fs.realPath(file).pipe(Effect.orElseSucceed(() => path.resolve(file)))

    const resolveImport = (target: string, from: string): Effect.Effect<Option.Option<string>> =>
      Effect.gen(function* () {
        const base = (t: string) =>
          t.startsWith("~/") ? path.join(home, t.slice(2)) : path.resolve(path.dirname(from), t)
        const candidates = [target]
        // "see @docs/setup.md." — the sentence's punctuation is not part of the path.
        const trimmed = target.replace(/[.,;:!?)\]]+$/, "")
        if (trimmed !== target && trimmed !== "") candidates.push(trimmed)
        for (const candidate of candidates) {
          const file = base(candidate)
          if (yield* isFile(file)) return Option.some(file)
        }
        return Option.none()
      })

    /** Loads `file`, which its caller found to be a file (a file gone since reads as absent), and its imports. */
    const visit = (
      file: string,
      scope: MemoryScope,
      depth: number,
      importedFrom: string | undefined
    ): Effect.Effect<void> =>
      Effect.gen(function* () {
        if (files.length >= maxFiles) return
        const key = yield* canonical(file)
        if (seen.has(key)) return
        seen.add(key)
        const origin = importedFrom === undefined ? {} : { importedFrom }
        // Bound what is read: a file of more than 4 bytes per allowed character cannot fit, so it is not read.
        const size = yield* fs.stat(file).pipe(
          Effect.map((info) => Number(info.size)),
          Effect.orElseSucceed(() => 0)
        )
        const text = size > maxChars * 4 ? Option.none<string>() : yield* Effect.option(fs.readFileString(file))
        if (Option.isSome(text) && text.value.length <= maxChars) {
          files.push({ path: file, scope, content: text.value, ...origin })
          if (depth >= maxImportDepth) return
          for (const target of findImports(text.value)) {
            const resolved = yield* resolveImport(target, file)
            if (Option.isSome(resolved)) yield* visit(resolved.value, scope, depth + 1, file)
          }
          return
        }
        if (Option.isNone(text) && size <= maxChars * 4) return // unreadable: as if absent
        const length = Option.isSome(text) ? `${text.value.length} characters` : `${size} bytes`
        files.push({
          path: file,
          scope,
          content: "",
          ...origin,
          skipped: `${length}, over the ${maxChars}-character limit for a memory file`
        })
      })

    const userFile = path.join(home, ".claude", "CLAUDE.md")
    const dirs: Array<string> = []
    for (let dir = cwd; ; dir = path.dirname(dir)) {
      dirs.unshift(dir)
      if (path.dirname(dir) === dir) break
    }
    const places = dirs.map((dir) => ({
      claude: [path.join(dir, "CLAUDE.md"), path.join(dir, ".claude", "CLAUDE.md")],
      agents: path.join(dir, "AGENTS.md"),
      local: path.join(dir, "CLAUDE.local.md")
    }))
    // Which candidates exist is asked first (most are absent); those that do are then visited in order.
    const candidates = [userFile, ...places.flatMap((place) => [...place.claude, place.agents, place.local])]
    const present = yield* Effect.forEach(candidates, isFile)
    const exists = new Set(candidates.filter((_, i) => present[i] === true))
    const visitIfPresent = (file: string, scope: MemoryScope) =>
      exists.has(file) ? visit(file, scope, 0, undefined) : Effect.void

    yield* visitIfPresent(userFile, "user")
    for (const place of places) {
      const project = place.claude.some((file) => exists.has(file)) ? place.claude : [place.agents]
      for (const file of project) yield* visitIfPresent(file, "project")
      yield* visitIfPresent(place.local, "local")
    }
    return files
  })

/** The memory files for `options.cwd` (see `load`). */
export const make = (options: Options): Effect.Effect<Interface, never, FileSystem.FileSystem | Path.Path> =>
  Effect.map(load(options), (files) => ({ files }))

export class Memory extends Context.Service<Memory, Interface>()("weft/Memory") {
  static make = make

  static layer = (options: Options): Layer.Layer<Memory, never, FileSystem.FileSystem | Path.Path> => Layer.effect(Memory, make(options))

  /** `layer` on Node's file system: needs nothing. */
  static layerNode = (options: Options): Layer.Layer<Memory> =>
    Memory.layer(options).pipe(Layer.provide([NodeFileSystem.layer, NodePath.layer]))

  static layerStatic = (files: ReadonlyArray<MemoryFile>): Layer.Layer<Memory> => Layer.succeed(Memory, { files })
}

// The entry points at the module's top level: `import { Memory } from "weft"` reads `Memory.layer...(...)`, and
// `Memory.Memory` is the Tag (`yield* Memory.Memory`).
export const layer = Memory.layer
export const layerNode = Memory.layerNode
export const layerStatic = Memory.layerStatic
