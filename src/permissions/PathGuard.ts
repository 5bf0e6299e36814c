/**
 * Paths as permissions see them: resolved through symlinks and compared by whole components, never as strings.
 *
 * - `realPath`: the real path of what a call touches. A symlink is followed (a dangling one to its target, as Write
 *   writes through it); a path that does not exist yet is the real path of its longest existing ancestor with the
 *   rest appended; `..` is resolved after the links before it, as the kernel does.
 * - `isInside`: a real path lies under a root by whole components (`/proj-evil` is not under `/proj`).
 * - Path rules (`Read(./src/**)`, `Edit(//etc/**)`, `Read(~/.ssh/**)`, `Read(*.env)`): gitignore-style patterns
 *   relative to an anchor; a rule naming a directory covers what is inside it.
 * - Protected paths: `.git`, `.claude`, `.mcp.json`, `$WEFT_HOME`, shell rc and profile files; compared after
 *   Unicode normalisation (NFKC), with invisible characters removed and case folded, so `.GIT`, `.git\u200b` and
 *   a full-width `．ｇｉｔ` are `.git` too (the filesystem may treat them so; a person reading them would).
 */
import * as Effect from "effect/Effect"
import { lstatSync, readlinkSync, realpathSync } from "node:fs"
import { dirname, isAbsolute, join, resolve, sep } from "node:path"
import * as ShellStartupFiles from "../platform/ShellStartupFiles.js"
import { parseRule as parseGitignoreRule, type Rule as GitignoreRule } from "../tools/search/Gitignore.js"
import { globSource, hasMagic } from "../tools/search/GlobPattern.js"

const maxLinks = 40

// Synchronous: each is one system call on a local path, far cheaper than a round trip through libuv's thread pool
// and a suspended fiber (a `weft -p` start checks several paths).
const attempt = <A>(call: () => A): Effect.Effect<A | undefined> =>
  Effect.sync(() => {
    try {
      return call()
    } catch {
      // A failed call: no answer.
    }
    return undefined
  })

const realpathOrUndefined = (path: string): Effect.Effect<string | undefined> => attempt(() => realpathSync.native(path))

const readlinkOrUndefined = (path: string): Effect.Effect<string | undefined> => attempt(() => readlinkSync(path))

const isSymlink = (path: string): Effect.Effect<boolean> =>
  // Stryker disable next-line ConditionalExpression: a filter only: readlink fails on what is no link, and the walk then goes on as for one
  Effect.map(attempt(() => lstatSync(path).isSymbolicLink()), (link) => link === true)

/**
 * The real path of the absolute `path`: every existing symlink on the way followed (dangling ones to their
 * targets), the missing rest appended to the real path of the longest existing ancestor.
 */
export const realPath = (path: string): Effect.Effect<string> =>
  Effect.gen(function* () {
    let current = resolve(path)
    for (let hops = 0; hops < maxLinks; hops++) {
      const whole = yield* realpathOrUndefined(current)
      // Stryker disable next-line ConditionalExpression: a fast path: the walk below ends in realpath of the same path when it exists
      if (whole !== undefined) return whole
      // Walk up to the longest existing ancestor; a dangling link on the way is replaced by its target.
      const missing: Array<string> = []
      let ancestor = current
      // Stryker disable next-line BooleanLiteral: the loop below leaves only by a relink (setting it) or a return
      let relinked = false
      while (true) {
        const parent = dirname(ancestor)
        const name = ancestor.slice(parent === sep ? 1 : parent.length + 1)
        // Stryker disable next-line ConditionalExpression: a filter only: readlink fails on what is no link (as isSymlink above)
        if (yield* isSymlink(ancestor)) {
          const target = yield* readlinkOrUndefined(ancestor)
          // Stryker disable next-line ConditionalExpression: readlink fails on a link lstat just saw only in a race with its removal
          if (target !== undefined) {
            // Stryker disable next-line LogicalOperator: parent exists (it holds the link); and the next hop resolves its links anyway
            const parentReal = (yield* realpathOrUndefined(parent)) ?? parent
            // A `..` in the target is left in place: the next hop resolves it after the links before it, as the
            // kernel does (`d/../x` with `d` a link is beside d's target, not beside d); joining would drop it first.
            // Stryker disable next-line ConditionalExpression,ArithmeticOperator: `parentReal === sep` is a link right under /, which no test can make
            const beside = parentReal === sep ? sep + target : parentReal + sep + target
            current = target.split(sep).includes("..")
              ? [isAbsolute(target) ? target : beside, ...missing.reverse()].join(sep)
              : join(isAbsolute(target) ? target : resolve(parentReal, target), ...missing.reverse())
            relinked = true
            break
          }
        }
        const real = yield* realpathOrUndefined(ancestor)
        if (real !== undefined) return join(real, ...missing.reverse())
        // Stryker disable next-line ConditionalExpression: not reached: the real path of / always exists, so the line above returns first
        if (parent === ancestor) return resolve(path)
        missing.push(name)
        ancestor = parent
      }
      // Stryker disable next-line ConditionalExpression: relinked is always true here (see above); kept against a future exit from the loop
      if (!relinked) break
    }
    // A loop of links: the path as written.
    return resolve(path)
  })

/** `child` is `root` or lies under it, by whole components. Both absolute and normalised. */
export const isInside = (child: string, root: string): boolean => {
  if (child === root) return true
  const base = root.endsWith(sep) ? root : root + sep
  return child.startsWith(base)
}

export const isInsideAny = (child: string, roots: ReadonlyArray<string>): boolean => roots.some((root) => isInside(child, root))

// ---------------------------------------------------------------------------------------------------------------
// Path rules

/** A compiled path rule specifier. */
export interface PathPattern {
  readonly specifier: string
  /** The directory the pattern is relative to (real path). */
  readonly anchor: string
  readonly rule: GitignoreRule
  /** The same pattern matching case-insensitively: what deny and ask rules use. */
  readonly folded: RegExp
  /**
   * The directory (or file) every path the pattern matches lies in: the anchor with the pattern's components before
   * its first wildcard (`./secrets/**` -> <root>/secrets). Undefined for a name matched at any depth (`*.env`).
   */
  readonly fixedRoot: string | undefined
}

export type PathPatternParse = { readonly _tag: "Pattern"; readonly pattern: PathPattern } | { readonly _tag: "Invalid"; readonly message: string }

/**
 * Compiles a path rule's specifier: `//abs` is absolute, `~/x` under `home`, `/x` and `./x` under `root` (the
 * settings file's project), and a bare pattern is gitignore-style under `root` (no `/` inside: a name at any depth).
 * `anchorReal` maps an anchor directory to its real path.
 */
export const compilePathPattern = (
  specifier: string,
  root: string,
  home: string,
  anchorReal: (dir: string) => string = (dir) => dir
): PathPatternParse => {
  const text = specifier.trim()
  if (text === "") return { _tag: "Invalid", message: "an empty path pattern" }
  let anchor: string
  let rest: string
  let anchored = true
  if (text.startsWith("//")) {
    anchor = sep
    rest = text.slice(2)
  } else if (text === "~" || text.startsWith("~/")) {
    anchor = home
    rest = text.slice(2)
  } else if (text.startsWith("/")) {
    anchor = root
    rest = text.slice(1)
  } else if (text === "." || text.startsWith("./")) {
    anchor = root
    rest = text.slice(2)
  } else {
    anchor = root
    rest = text
    anchored = false
  }
  // `..` in a rule would reach outside its anchor in ways the matcher below does not follow: refused.
  if (rest.split("/").includes("..")) return { _tag: "Invalid", message: `"${specifier}" contains "..": write the directory it means` }
  if (rest === "" || rest === "**" || rest === "/") rest = "**"
  const line = anchored && !rest.startsWith("/") ? `/${rest}` : rest
  try {
    const rule = parseGitignoreRule(line)
    if (rule === undefined || rule.negate) return { _tag: "Invalid", message: `"${specifier}" is not a path pattern` }
    const anchorPath = anchorReal(resolve(anchor))
    const fixed: Array<string> = []
    for (const component of rest.split("/")) {
      if (component === "" || hasMagic(component) || component === "**") break
      fixed.push(component)
    }
    return {
      _tag: "Pattern",
      pattern: {
        specifier: text,
        anchor: anchorPath,
        rule,
        folded: new RegExp(rule.regex.source, "i"),
        fixedRoot: rule.basenameOnly ? undefined : join(anchorPath, ...fixed)
      }
    }
  } catch (error) {
    return { _tag: "Invalid", message: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Whether `path` (absolute) is matched by the pattern, or lies inside a directory it matches (a rule naming a
 * directory covers its contents). `caseFolded` for deny and ask rules: they also match another case of the name.
 */
export const matchesPath = (pattern: PathPattern, path: string, caseFolded: boolean): boolean => {
  if (!isInside(path, pattern.anchor)) return false
  const regex = caseFolded ? pattern.folded : pattern.rule.regex
  const relative = path === pattern.anchor ? "" : path.slice(pattern.anchor.length + (pattern.anchor.endsWith(sep) ? 0 : 1))
  if (relative === "") return regex.test("") || regex.test("/")
  const parts = relative.split(sep)
  for (let length = parts.length; length >= 1; length--) {
    const subject = pattern.rule.basenameOnly ? (parts[length - 1] ?? "") : parts.slice(0, length).join("/")
    if (regex.test(subject)) return true
    // The path may be the directory a `dir/**` pattern names.
    if (length === parts.length && !pattern.rule.basenameOnly && regex.test(`${subject}/`)) return true
  }
  return false
}

// ---------------------------------------------------------------------------------------------------------------
// Protected paths

// Built on the first name that is not printable ASCII: a regular expression of Unicode properties costs about half a
// millisecond to build, and most paths never need it.
let invisible: RegExp | undefined

/** A path component as compared for protection: NFKC, invisible characters removed, case folded, trailing dots and blanks dropped. */
export const foldName = (name: string): string => {
  // Printable ASCII is its own NFKC form and holds no invisible character.
  const folded = /^[\x20-\x7e]*$/.test(name)
    ? name.toLowerCase()
    : name.normalize("NFKC").replace((invisible ??= /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu), "").toLowerCase()
  return folded === "." || folded === ".." ? folded : folded.replace(/[. ]+$/, "")
}

const protectedNames = new Set([".git", ".claude", ".mcp.json"])

/** Shell start-up files: writing one runs code in every later shell. */
const shellStartupFiles = new Set([
  ...ShellStartupFiles.posix,
  ".zlogout",
  ".cshrc",
  ".tcshrc",
  ".kshrc",
  ".mkshrc",
  ".inputrc",
  ".envrc",
  ".gitconfig",
  ".npmrc",
  ".yarnrc",
  ".pypirc",
  ".netrc",
  ".ssh",
  ".gnupg"
])

/**
 * Why writing `path` must be asked about, or undefined. Checked on the path as written and on its real path (the
 * caller passes both); `weftHome` is weft's own state (settings of trust, transcripts).
 */
export const protectedReason = (path: string, weftHome: string): string | undefined => {
  const folded = path.split(sep).map(foldName)
  for (const name of folded) {
    if (protectedNames.has(name)) return `${name} is protected`
  }
  // Stryker disable next-line StringLiteral: not reached: split always gives at least one component
  const base = folded[folded.length - 1] ?? ""
  if (shellStartupFiles.has(base) || folded.slice(0, -1).some((name) => name === ".ssh" || name === ".gnupg")) {
    return `${base} is a shell start-up or credentials file`
  }
  if (folded.length >= 2 && folded[folded.length - 2] === "fish" && base === "config.fish") return "config.fish is a shell start-up file"
  const home = resolve(weftHome).split(sep).map(foldName).join(sep)
  const joined = folded.join(sep)
  if (isInside(joined, home)) return "weft's own home ($WEFT_HOME) is protected"
  return undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Writes that reach under a path (`rm -r dir`, `mv dir x`, `tar -x -C dir`) and glob patterns (`rm *.o`)

/** Compiles one component of a shell glob, matched on folded names; a component that is no glob is compared as text. */
const componentMatcher = (component: string): ((name: string) => boolean) => {
  const folded = foldName(component)
  // An extended glob (`@(.git)`, `!(x)`) may match any name: not read here.
  if (/[?*+@!]\(/.test(component)) return () => true
  if (!hasMagic(component)) return (name) => name === folded
  try {
    // dotglob may be set in the session's shell (`shopt -s dotglob`): `*` is taken to match a leading dot too.
    const regex = new RegExp(`^${globSource(component)}$`, "is")
    return (name) => regex.test(name)
  } catch {
    return () => true
  }
}

/**
 * Whether `inner` is or may be `outer` or lie under it, where `outer` may hold glob components (`/p/*` may contain
 * `/p/.git/hooks`). Both absolute; names compared folded, as protected names are.
 */
export const mayContain = (outer: string, inner: string): boolean => {
  const outerParts = outer.split(sep).filter((part) => part !== "")
  const innerParts = inner.split(sep).filter((part) => part !== "").map(foldName)
  if (outerParts.length > innerParts.length) return false
  // Stryker disable next-line StringLiteral: not reached: outer has no more components than inner (checked above)
  return outerParts.every((part, index) => componentMatcher(part)(innerParts[index] ?? ""))
}

/** Protected names a glob component may match, for a write through a pattern (`rm .*`, `cp x .g*`). */
export const protectedPatternReason = (path: string): string | undefined => {
  const parts = path.split(sep).filter((part) => part !== "")
  for (const [index, part] of parts.entries()) {
    if (!hasMagic(part)) continue
    const matches = componentMatcher(part)
    const last = index === parts.length - 1
    for (const name of protectedNames) if (matches(name)) return `the pattern \`${part}\` may match ${name}, which is protected`
    for (const name of shellStartupFiles) {
      if ((last || name === ".ssh" || name === ".gnupg") && matches(name)) return `the pattern \`${part}\` may match ${name}, a shell start-up or credentials file`
    }
  }
  return undefined
}

/**
 * The protected paths a write reaching under `path` may change (`rm -r .`, `mv proj x` take the project's `.git`
 * with them): those of `locations` that `path` may contain. `locations` are the protected paths that exist in
 * known places (each workspace root's `.git`, `.claude`, `.mcp.json`, weft's home, the home's start-up files).
 */
export const protectedUnder = (path: string, locations: ReadonlyArray<string>): string | undefined =>
  locations.find((location) => mayContain(path, location))

/** The home's files that protectedReason names, as paths: what a write of the home (or above) reaches. */
export const homeProtectedLocations = (home: string): ReadonlyArray<string> => [
  ...[...shellStartupFiles].map((name) => join(home, name)),
  join(home, ".claude"),
  join(home, ".config", "fish", "config.fish")
]

/** The workspace root's protected entries. */
export const rootProtectedLocations = (root: string): ReadonlyArray<string> => [...protectedNames].map((name) => join(root, name))
