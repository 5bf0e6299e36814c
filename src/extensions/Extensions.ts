/**
 * Custom slash commands and skills, found where Claude Code finds them, as data the session and its tools use:
 *   - commands: `.claude/commands/**\/*.md` of the project and `~/.claude/commands/` of the user; a file in a
 *     subfolder is namespaced by it (`frontend/lint.md` is `/frontend:lint`); the user's wins on a clash;
 *   - skills: `.claude/skills/<dir>/SKILL.md` of the project and `~/.claude/skills/<dir>/SKILL.md`, named by `<dir>`;
 *     the user's wins on a clash.
 * Both are prompts, not code: a project's are loaded whether or not it is trusted (what their `` !`cmd` `` would
 * run goes through the Bash permission rules when a command is expanded). What would widen permissions does not
 * come from an untrusted project, as with its settings' allow rules: its commands' and skills' `allowed-tools` are
 * dropped, with a warning (a `` !`cmd` `` must not run under rules its own file granted). A file that cannot be read or whose
 * header is malformed is skipped or loaded with a warning, never a failure.
 *
 * Reading is cheap and synchronous (FileProbe): an absent folder is one stat, and the files are small.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { homedir } from "node:os"
import { basename, join, relative, sep } from "node:path"
import { Settings } from "../context/Settings.js"
import { listNames, probe, readSmallText } from "../platform/FileProbe.js"
import * as Arguments from "./Arguments.js"
import * as Frontmatter from "./Frontmatter.js"

export type Scope = "user" | "project"

/** What commands and skills share: a prompt with a header. */
interface Definition {
  /** Without the slash: `review`, `frontend:lint`. */
  readonly name: string
  readonly description?: string
  readonly argumentHint?: string
  /** Permission rules granted while it runs (`allowed-tools`). */
  readonly allowedTools: ReadonlyArray<string>
  /** The model every request of the run uses (`model`). */
  readonly model?: string
  /** Not listed to the model nor runnable through the Skill tool (`disable-model-invocation`). */
  readonly disableModelInvocation: boolean
  /** The prompt, after the header. */
  readonly body: string
  /** The file it was read from (absolute). */
  readonly path: string
  readonly scope: Scope
}

export interface Command extends Definition {
  readonly _tag: "Command"
}

export interface Skill extends Definition {
  readonly _tag: "Skill"
  /** The skill's folder (absolute): its scripts and files are there. */
  readonly directory: string
}

export type Extension = Command | Skill

export interface Loaded {
  readonly commands: ReadonlyArray<Command>
  readonly skills: ReadonlyArray<Skill>
  /** Files skipped or read in part, for stderr. */
  readonly warnings: ReadonlyArray<string>
}

export const empty: Loaded = { commands: [], skills: [], warnings: [] }

/** Where to look: the project's folder and the user's home. */
export interface Options {
  readonly cwd: string
  readonly home?: string
  /** Whether the project is trusted (default true); untrusted, its files grant no `allowed-tools`. */
  readonly trusted?: boolean
}

/** Bound on the depth of command namespaces walked (a symlink loop cannot hold a run). */
const maxDepth = 8
/** Bound on the files read per folder tree. */
const maxFiles = 500

interface Source {
  readonly scope: Scope
  /** Whether its `allowed-tools` may be granted (not from an untrusted project). */
  readonly grants: boolean
  readonly warnings: Array<string>
}

const definitionOf = (text: string, path: string, name: string, source: Source) => {
  const { scope, warnings } = source
  const parsed = Frontmatter.parse(text)
  for (const warning of parsed.warnings) warnings.push(`${path}: ${warning}`)
  const { attributes } = parsed
  const allowedTools = Frontmatter.rulesOf(attributes, "allowed-tools")
  if (allowedTools.length > 0 && !source.grants) {
    warnings.push(`${path}: allowed-tools ignored: the project is not trusted (weft trust, or --trust-project for one run)`)
  }
  const description = Frontmatter.stringOf(attributes, "description")
  const argumentHint = Frontmatter.stringOf(attributes, "argument-hint")
  const model = Frontmatter.stringOf(attributes, "model")
  return {
    name,
    ...(description === undefined ? {} : { description }),
    ...(argumentHint === undefined ? {} : { argumentHint }),
    allowedTools: source.grants ? allowedTools : [],
    // `inherit` is the session's model, as for agents.
    ...(model === undefined || model === "inherit" ? {} : { model }),
    disableModelInvocation: Frontmatter.booleanOf(attributes, "disable-model-invocation"),
    body: parsed.body,
    path,
    scope
  }
}

const readText = (path: string, warnings: Array<string>) =>
  Effect.map(readSmallText(path), (read) => {
    if ("text" in read) return read.text
    warnings.push(`${path}: could not be read (${read.error.message}); skipped`)
    return undefined
  })

/** The `.md` files under `root`, as paths relative to it, in a stable order. */
const markdownFiles = (root: string) =>
  Effect.gen(function* () {
    const found: Array<string> = []
    const walk = (dir: string, depth: number): Effect.Effect<void> =>
      Effect.gen(function* () {
        if (depth > maxDepth || found.length >= maxFiles) return
        const names = [...(yield* listNames(dir).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => [])))].sort()
        for (const name of names) {
          if (name.startsWith(".")) continue
          const path = join(dir, name)
          const kind = yield* probe(path)
          if (kind === "Directory") yield* walk(path, depth + 1)
          else if (kind === "File" && name.endsWith(".md") && found.length < maxFiles) found.push(relative(root, path))
        }
      })
    if ((yield* probe(root)) === "Directory") yield* walk(root, 0)
    return found
  })

const loadCommands = (root: string, source: Source) =>
  Effect.gen(function* () {
    const commands: Array<Command> = []
    for (const file of yield* markdownFiles(root)) {
      const path = join(root, file)
      const text = yield* readText(path, source.warnings)
      if (text === undefined) continue
      const name = file.slice(0, -".md".length).split(sep).join(":")
      commands.push({ _tag: "Command", ...definitionOf(text, path, name, source) })
    }
    return commands
  })

const loadSkills = (root: string, source: Source) =>
  Effect.gen(function* () {
    if ((yield* probe(root)) !== "Directory") return []
    const skills: Array<Skill> = []
    const names = [...(yield* listNames(root).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => [])))].sort()
    for (const name of names.slice(0, maxFiles)) {
      if (name.startsWith(".")) continue
      const directory = join(root, name)
      const path = join(directory, "SKILL.md")
      if ((yield* probe(path)) !== "File") continue
      const text = yield* readText(path, source.warnings)
      if (text === undefined) continue
      // Named by its folder, as Claude Code lists it (a header `name` is for display only).
      skills.push({ _tag: "Skill", ...definitionOf(text, path, basename(directory), source), directory })
    }
    return skills
  })

/** Later scopes win: project first, then the user's. */
const byName = <A extends Extension>(...scopes: ReadonlyArray<ReadonlyArray<A>>): ReadonlyArray<A> => {
  const map = new Map<string, A>()
  for (const scope of scopes) for (const item of scope) map.set(item.name, item)
  return [...map.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** Reads the commands and skills of the project at `cwd` and of the user at `home`. */
export const load = (options: Options): Effect.Effect<Loaded> =>
  Effect.gen(function* () {
    const home = options.home ?? homedir()
    const warnings: Array<string> = []
    // The project may be the home directory itself: its folders are then the user's, read once.
    const sameRoot = options.cwd === home
    const project: Source = { scope: sameRoot ? "user" : "project", grants: sameRoot || options.trusted !== false, warnings }
    const user: Source = { scope: "user", grants: true, warnings }
    const projectCommands = yield* loadCommands(join(options.cwd, ".claude", "commands"), project)
    const userCommands = sameRoot ? [] : yield* loadCommands(join(home, ".claude", "commands"), user)
    const projectSkills = yield* loadSkills(join(options.cwd, ".claude", "skills"), project)
    const userSkills = sameRoot ? [] : yield* loadSkills(join(home, ".claude", "skills"), user)
    return {
      commands: byName(projectCommands, userCommands),
      skills: byName(projectSkills, userSkills),
      warnings
    }
  })

/**
 * What `/name` runs: a command of that name, else a skill (`-p "/skill args"` expands a skill too). Commands and
 * skills share one space of names; a command wins.
 */
export const find = (loaded: Loaded, name: string): Extension | undefined =>
  loaded.commands.find((command) => command.name === name) ?? loaded.skills.find((skill) => skill.name === name)

/** What the model may run through the Skill tool: skills and commands, except those it may not invoke. */
export const invocable = (loaded: Loaded): ReadonlyArray<Extension> => {
  const commands = loaded.commands.filter((command) => !command.disableModelInvocation)
  const taken = new Set(commands.map((command) => command.name))
  return [...commands, ...loaded.skills.filter((skill) => !skill.disableModelInvocation && !taken.has(skill.name))]
}

/** A short description for listings: the header's, else the body's first line. */
export const describe = (extension: Extension): string => {
  if (extension.description !== undefined) return extension.description
  const first = extension.body.split("\n").find((line) => line.trim() !== "")?.trim().replace(/^#+\s*/, "") ?? ""
  return first.length > 100 ? `${first.slice(0, 99)}…` : first
}

/**
 * The listing the model gets (Claude Code sends it as a system reminder in the conversation after the first user
 * message, not in the system prompt or the tool's description); undefined when there is nothing to list.
 */
/**
 * The text a loaded skill or command gives the model, its arguments put in (Arguments.ts): the Skill tool's second
 * block, and what `/name args` expands to (before its `` !`cmd` `` run).
 */
export const bodyOf = (extension: Extension, args: string): string => {
  const body = Arguments.substitute(extension.body, args)
  return extension._tag === "Skill" ? `Base directory for this skill: ${extension.directory}\n\n${body}` : body
}

/** The tool that loads a skill (SkillTool.ts). */
export const skillToolName = "Skill"

export const listing = (loaded: Loaded): string | undefined => {
  const items = invocable(loaded)
  if (items.length === 0) return undefined
  return [
    "The following skills are available for use with the Skill tool:",
    "",
    ...items.map((item) => `- ${item.name}: ${describe(item)}`)
  ].join("\n")
}

/** The commands and skills a session has, loaded when the session is built. */
export class Extensions extends Context.Service<Extensions, Loaded>()("weft/Extensions") {
  /** Loaded for the Settings' project and home. */
  static make: Effect.Effect<Loaded, never, Settings> = Effect.gen(function* () {
    const settings = yield* Settings
    return yield* load({ cwd: settings.projectDir, home: settings.home, trusted: settings.trusted })
  })

  /** `make` as a layer. */
  static layer: Layer.Layer<Extensions, never, Settings> = Layer.effect(Extensions, Extensions.make)

  /** Fixed commands and skills (tests; a library user's own). */
  static layerStatic = (loaded: Partial<Loaded>): Layer.Layer<Extensions> => Layer.succeed(Extensions, { ...empty, ...loaded })

  /** None: nothing listed, no Skill tool. */
  static layerNone: Layer.Layer<Extensions> = Layer.succeed(Extensions, empty)
}

export const make = Extensions.make
export const layer = Extensions.layer
export const layerStatic = Extensions.layerStatic
export const layerNone = Extensions.layerNone
