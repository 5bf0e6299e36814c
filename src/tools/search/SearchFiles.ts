/**
 * The file system as Glob, Grep and their walk see it: the walk's directory listings and ignore files, the probes of
 * a search path, the reads of the built-in Grep engine, modification times and the lookup of `rg` on PATH.
 *
 * The operations are synchronous on purpose: the walk runs them in time slices (Walk.loop) because on a tree of
 * 50k small files the thread-pool round trip of each asynchronous call costs more than the call itself. Being a
 * service, the requirement shows in the tools' types and a test can swap the disk for a tree in memory
 * (`SearchFiles.fromTree`).
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as nodePath from "node:path"

export type Kind = "File" | "Directory" | "Other"

/** A directory entry, by its type as listed (`Unknown` where the file system does not report types). */
export interface Entry {
  readonly name: string
  readonly kind: Kind | "Symlink" | "Unknown"
}

export interface Interface {
  /** What `path` is, following symbolic links; undefined when it does not exist or cannot be reached. */
  readonly kind: (path: string) => Kind | undefined
  /** What `path` itself is, not following a link (Symlink); undefined when absent. */
  readonly kindNoFollow: (path: string) => Kind | "Symlink" | undefined
  /** The entries of a directory, or undefined when it cannot be read. */
  readonly list: (path: string) => ReadonlyArray<Entry> | undefined
  /** A text file's content (UTF-8), or undefined when it cannot be read. */
  readonly readText: (path: string) => string | undefined
  /**
   * A file's bytes, read into `scratch` when they fit (the view is valid until the next read), else into a new
   * buffer; undefined when it cannot be read or is larger than `maxBytes`.
   */
  readonly readBytes: (path: string, scratch: Buffer, maxBytes: number) => Buffer | undefined
  /** Modification time in ms, or 0 when the file vanished meanwhile. */
  readonly mtime: (path: string) => number
  /** Whether `path` is an executable regular file. */
  readonly isExecutable: (path: string) => boolean
}

const kindOf = (stats: fs.Stats): Kind => (stats.isFile() ? "File" : stats.isDirectory() ? "Directory" : "Other")

const entryKind = (entry: fs.Dirent): Entry["kind"] =>
  entry.isFile()
    ? "File"
    : entry.isDirectory()
      ? "Directory"
      : entry.isSymbolicLink()
        ? "Symlink"
        : entry.isBlockDevice() || entry.isCharacterDevice() || entry.isFIFO() || entry.isSocket()
          ? "Other"
          : "Unknown"

/**
 * Reads a whole file. Into the scratch buffer first, without an fstat: most files fit, and skipping that call is
 * a quarter of the syscalls per file. Only a file that fills the buffer is measured and read in full.
 */
const readBytes = (path: string, scratch: Buffer, maxBytes: number): Buffer | undefined => {
  let fd: number
  try {
    fd = fs.openSync(path, "r")
  } catch {
    return undefined
  }
  try {
    // A regular file returns less than asked only at its end, so one read settles most files.
    let length = fs.readSync(fd, scratch, 0, scratch.length, null)
    if (length < scratch.length) return scratch.subarray(0, length)
    const size = fs.fstatSync(fd).size
    if (size > maxBytes) return undefined
    const buffer = Buffer.allocUnsafe(Math.max(size, length))
    scratch.copy(buffer, 0, 0, length)
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null)
      if (read === 0) break
      length += read
    }
    return buffer.subarray(0, length)
  } catch {
    return undefined
  } finally {
    fs.closeSync(fd)
  }
}

/** The disk, through Node's synchronous fs calls. */
export const node: Interface = {
  kind: (path) => {
    try {
      return kindOf(fs.statSync(path))
    } catch {
      return undefined
    }
  },
  kindNoFollow: (path) => {
    try {
      const stats = fs.lstatSync(path)
      return stats.isSymbolicLink() ? "Symlink" : kindOf(stats)
    } catch {
      return undefined
    }
  },
  list: (path) => {
    try {
      return fs.readdirSync(path, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: entryKind(entry) }))
    } catch {
      return undefined
    }
  },
  readText: (path) => {
    try {
      return fs.readFileSync(path, "utf8")
    } catch {
      return undefined
    }
  },
  readBytes,
  mtime: (path) => {
    try {
      return fs.statSync(path).mtimeMs
    } catch {
      return 0
    }
  },
  isExecutable: (path) => {
    try {
      fs.accessSync(path, fs.constants.X_OK)
      return fs.statSync(path).isFile()
    } catch {
      return false
    }
  }
}

/**
 * A tree in memory: absolute file paths to their content (directories are implied by the paths; a path ending in
 * `/` is an empty directory), each file's modification time its index in `files` unless given in `mtimes`.
 */
export const fromTree = (files: Readonly<Record<string, string>>, mtimes: Readonly<Record<string, number>> = {}): Interface => {
  const contents = new Map<string, Buffer>()
  const directories = new Map<string, Map<string, Kind>>()
  const addDirectory = (path: string): Map<string, Kind> => {
    let entries = directories.get(path)
    if (entries === undefined) {
      entries = new Map()
      directories.set(path, entries)
      const parent = nodePath.dirname(path)
      if (parent !== path) addDirectory(parent).set(nodePath.basename(path), "Directory")
    }
    return entries
  }
  const order = new Map<string, number>()
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith("/")) {
      addDirectory(nodePath.resolve(path))
      continue
    }
    const absolute = nodePath.resolve(path)
    contents.set(absolute, Buffer.from(content))
    order.set(absolute, order.size + 1)
    addDirectory(nodePath.dirname(absolute)).set(nodePath.basename(absolute), "File")
  }
  const kind = (path: string): Kind | undefined => {
    const absolute = nodePath.resolve(path)
    return contents.has(absolute) ? "File" : directories.has(absolute) ? "Directory" : undefined
  }
  return {
    kind,
    kindNoFollow: kind,
    list: (path) => {
      const entries = directories.get(nodePath.resolve(path))
      return entries === undefined ? undefined : [...entries].map(([name, kind]) => ({ name, kind }))
    },
    readText: (path) => contents.get(nodePath.resolve(path))?.toString("utf8"),
    readBytes: (path, _scratch, maxBytes) => {
      const bytes = contents.get(nodePath.resolve(path))
      return bytes === undefined || bytes.length > maxBytes ? undefined : bytes
    },
    mtime: (path) => mtimes[nodePath.resolve(path)] ?? order.get(nodePath.resolve(path)) ?? 0,
    isExecutable: () => false
  }
}

export class SearchFiles extends Context.Service<SearchFiles, Interface>()("weft/SearchFiles") {
  /** The disk (Node's fs). */
  static layer: Layer.Layer<SearchFiles> = Layer.succeed(SearchFiles, node)
  /** A tree in memory: `fromTree` as a layer. */
  static layerFromTree = (files: Readonly<Record<string, string>>, mtimes?: Readonly<Record<string, number>>): Layer.Layer<SearchFiles> =>
    Layer.succeed(SearchFiles, fromTree(files, mtimes))
}

export const layer = SearchFiles.layer
export const layerFromTree = SearchFiles.layerFromTree
