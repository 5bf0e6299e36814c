/**
 * Decides whether a tool call may run: Allow, Deny (with a reason written for the model) or Ask (the Prompter
 * answers: a human, an SDK host, or nobody, which denies).
 *
 * The order, as in Claude Code, with deny always first:
 *   1. a deny rule from any scope that may match the call: Deny (whatever a mode, a flag, an allow or a hook says);
 *   2. an ask rule that may match, or a write to a protected path (`.git`, `.claude`, `.mcp.json`, `$WEFT_HOME`,
 *      shell start-up files): Ask, in every mode;
 *   3. bypassPermissions: Allow;
 *   4. an allow rule that covers the call: Allow;
 *   5. the mode: read-only tools inside the workspace run in default, acceptEdits and plan; acceptEdits also lets
 *      file edits inside the workspace run; plan refuses everything that is not read-only; the rest asks;
 *   6. dontAsk turns every Ask into a Deny.
 * Deny and ask rules match liberally (a path as written or its real path, in any letter case; a Bash command that
 * may match); allow rules strictly (the real path; a command that must match). Bash lines are parsed (BashCheck.ts,
 * on ShellCommand.ts): every command in them is checked, redirections are writes, so are the files the common
 * writing programs name (`cp`, `mv`, `rm`, `tee`...: ProgramWrites.ts) and those options write (ShellWrites.ts), and
 * a line that cannot be analysed is never allowed by a rule.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { isAbsolute, join, resolve } from "node:path"
import { type Interface as SettingsInterface, type PermissionMode, permissionModes, Settings } from "../context/Settings.js"
import type { ToolTarget } from "../domain/ToolTarget.js"
import { ShellSession } from "../tools/ShellSession.js"
import * as BashCheck from "./BashCheck.js"
import * as ShellCheck from "./ShellCheck.js"
import {
  compilePathPattern,
  homeProtectedLocations,
  isInsideAny,
  matchesPath,
  mayContain,
  type PathPattern,
  protectedPatternReason,
  protectedReason,
  protectedUnder,
  realPath,
  rootProtectedLocations
} from "./PathGuard.js"
import { type Interface as PrompterInterface, Prompter, type PromptRequest, unansweredReason } from "./Prompter.js"
import { type Behavior, collect, fileEditTools, fileReadTools, type Rule, ruleCoversTool, type RuleSource } from "./Rules.js"

export type { PermissionMode }
export { permissionModes }

export interface CheckRequest {
  readonly toolName: string
  readonly toolUseId: string
  readonly input: unknown
  readonly target: ToolTarget
  readonly readOnly: boolean
}

export type Decision =
  | { readonly _tag: "Allow" }
  | { readonly _tag: "Deny"; readonly reason: string }
  | { readonly _tag: "Ask"; readonly reason: string }

export const allow: Decision = { _tag: "Allow" }
export const deny = (reason: string): Decision => ({ _tag: "Deny", reason })
export const ask = (reason: string): Decision => ({ _tag: "Ask", reason })

export interface Interface {
  /** The mode in force (the init frame reports it). */
  readonly mode: PermissionMode
  readonly check: (request: CheckRequest) => Effect.Effect<Decision>
  /** Puts a call that must be asked about to the Prompter: Allow, or Deny with a reason for the model. */
  readonly prompt: (request: CheckRequest, reason: string) => Effect.Effect<Decision>
  /** Rules that did not parse, a refused mode: for stderr. */
  readonly warnings: ReadonlyArray<string>
}

export interface Options {
  /** Merged settings of every scope (rules per source, mode, additional directories). */
  readonly settings: SettingsInterface
  /** `--permission-mode` / `--dangerously-skip-permissions`; else `permissions.defaultMode`; else default. */
  readonly mode?: PermissionMode
  /** `--allowedTools`: allow rules. */
  readonly allowedTools?: ReadonlyArray<string>
  /** `--disallowedTools`: deny rules. */
  readonly disallowedTools?: ReadonlyArray<string>
  /** `--add-dir`: more workspace roots. */
  readonly additionalDirectories?: ReadonlyArray<string>
  /** Who answers asks; default nobody (an ask is a denial). */
  readonly prompter?: PrompterInterface
  /** weft's home (protected); default `$WEFT_HOME` else `~/.weft`, as the settings loader found it. */
  readonly weftHome?: string
  /** The Bash analyser; default the tree-sitter parse (loaded on the first Bash call checked). */
  readonly bash?: BashCheck.Interface
}

export class Permissions extends Context.Service<Permissions, Interface>()("weft/Permissions") {
  /**
   * The real permissions: rules from every settings scope and the CLI, the mode, the workspace (see above). A Bash
   * command's relative paths land in the ShellSession's current directory when the context has one.
   */
  static make = (options: Options): Effect.Effect<Interface> => make(options)

  /** `make` as a layer, with settings given. */
  static layer = (options: Options): Layer.Layer<Permissions> => Layer.effect(Permissions, make(options))

  /** `make` as a layer reading the Settings and Prompter services (nobody answers when there is no Prompter). */
  static layerFromServices = (options: Omit<Options, "settings" | "prompter"> = {}): Layer.Layer<Permissions, never, Settings> =>
    Layer.effect(
      Permissions,
      Effect.gen(function* () {
        const settings = yield* Settings
        const prompter = yield* Effect.serviceOption(Prompter)
        return yield* make({ ...options, settings, ...(prompter._tag === "Some" ? { prompter: prompter.value } : {}) })
      })
    )

  /**
   * Allows every call except tools denied by name or by a rule whose specifier is exactly the call's command /
   * path / url: for tests and examples that want tools to run. Its mode is what it does, bypassPermissions.
   */
  static permissive = (options: { readonly deniedRules?: ReadonlyArray<string>; readonly mode?: PermissionMode } = {}): Interface =>
    makePermissive(options.deniedRules ?? [], options.mode ?? "bypassPermissions")

  /** `permissive` as a layer. */
  static layerPermissive = (options: { readonly deniedRules?: ReadonlyArray<string>; readonly mode?: PermissionMode } = {}) =>
    Layer.succeed(Permissions, Permissions.permissive(options))
}

// ---------------------------------------------------------------------------------------------------------------

const pathTools: ReadonlySet<string> = new Set([...fileEditTools, ...fileReadTools])

/** Tools that touch nothing outside the session and need no permission. */
const noPermissionTools: ReadonlySet<string> = new Set(["TodoWrite", "BashOutput", "KillShell", "ListMcpResourcesTool", "ReadMcpResourceTool"])

interface CompiledRule {
  readonly rule: Rule
  /** For path tools: the compiled pattern (undefined for a bare tool rule). */
  readonly path?: PathPattern
}

const ruleLabel = (rule: Rule) => (rule.specifier === undefined ? rule.tool : `${rule.tool}(${rule.specifier})`)

const describeSource = (source: RuleSource) => (source.scope === "cli" ? source.origin : `${source.scope} settings (${source.origin})`)

/** Directories a line's `cd`s may lead to beyond which its relative paths are not checked but asked about. */
const maxDirectories = 32

const expandHome = (path: string, home: string) => (path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path)

export const make = (options: Options): Effect.Effect<Interface> =>
  Effect.gen(function* () {
    const settings = options.settings
    const home = settings.home
    const cwd = settings.projectDir
    const warnings: Array<string> = []
    const bash = options.bash ?? ShellCheck.parsed
    const prompter = options.prompter ?? Prompter.none
    const weftHome = yield* realPath(resolve(options.weftHome ?? join(home, ".weft")))

    // Rules from every source, then the CLI's.
    const raw: Array<Rule> = []
    const gather = (texts: ReadonlyArray<string> | undefined, behavior: Behavior, source: RuleSource) => {
      if (texts === undefined) return
      const collected = collect(texts, behavior, source)
      raw.push(...collected.rules)
      warnings.push(...collected.warnings)
    }
    for (const source of settings.sources) {
      const permissions = source.settings.permissions
      const ruleSource: RuleSource = { scope: source.scope, origin: source.origin, root: source.root }
      gather(permissions?.deny, "deny", ruleSource)
      gather(permissions?.ask, "ask", ruleSource)
      gather(permissions?.allow, "allow", ruleSource)
    }
    const cliSource = (flag: string): RuleSource => ({ scope: "cli", origin: flag, root: cwd })
    gather(options.disallowedTools, "deny", cliSource("--disallowedTools"))
    gather(options.allowedTools, "allow", cliSource("--allowedTools"))

    // Anchors of path rules, by their real paths (a rule for /tmp/x holds for /private/tmp/x).
    const anchors = new Map<string, string>()
    if (raw.some((rule) => rule.specifier !== undefined && pathTools.has(rule.tool))) {
      const anchorDirs = new Set<string>(["/", home, cwd, ...settings.sources.map((source) => source.root)])
      for (const dir of anchorDirs) anchors.set(dir, yield* realPath(dir))
    }
    const anchorReal = (dir: string) => anchors.get(dir) ?? dir

    const compiled: Array<CompiledRule> = []
    for (const rule of raw) {
      if (rule.specifier === undefined) {
        compiled.push({ rule })
        continue
      }
      const problem = (message: string) => {
        // A deny or ask rule that does not parse still names its tool: it then holds for the whole tool (fail
        // closed); an allow rule that does not parse allows nothing.
        if (rule.behavior === "allow") {
          warnings.push(`weft: ignoring the allow rule "${rule.text}" in ${describeSource(rule.source)}: ${message}`)
        } else {
          warnings.push(`weft: the ${rule.behavior} rule "${rule.text}" in ${describeSource(rule.source)} does not parse (${message}); it applies to every ${rule.tool} call`)
          compiled.push({ rule: { ...rule, specifier: undefined } })
        }
      }
      if (pathTools.has(rule.tool)) {
        const parsed = compilePathPattern(rule.specifier, rule.source.root, home, anchorReal)
        if (parsed._tag === "Invalid") problem(parsed.message)
        else compiled.push({ rule, path: parsed.pattern })
      } else if (rule.tool === "Bash") {
        const problemText = bash.validate(rule.specifier)
        if (problemText !== undefined) problem(problemText)
        else compiled.push({ rule })
      } else if (rule.tool === "WebFetch") {
        if (!/^domain:[^\s/]+$/.test(rule.specifier)) problem(`WebFetch rules are written WebFetch(domain:host)`)
        else compiled.push({ rule })
      } else if (rule.tool.startsWith("mcp__")) {
        problem("MCP tool rules take no specifier")
      } else {
        compiled.push({ rule })
      }
    }

    // The mode.
    const disableBypass = settings.value.permissions?.disableBypassPermissionsMode === "disable"
    let mode: PermissionMode = options.mode ?? settings.value.permissions?.defaultMode ?? "default"
    if (mode === "bypassPermissions" && disableBypass) {
      warnings.push("weft: bypassPermissions is disabled by settings (permissions.disableBypassPermissionsMode); using default")
      mode = "default"
    }

    // The workspace: the project, --add-dir, additionalDirectories (as real paths).
    const rootsWanted = [
      cwd,
      ...(options.additionalDirectories ?? []),
      ...(settings.value.permissions?.additionalDirectories ?? []),
      ...(settings.value.additionalDirectories ?? [])
    ]
    const roots: Array<string> = []
    for (const dir of rootsWanted) roots.push(yield* realPath(resolve(cwd, expandHome(dir, home))))

    const rulesFor = (toolName: string, behavior: Behavior) =>
      compiled.filter((entry) => entry.rule.behavior === behavior && ruleCoversTool(entry.rule.tool, toolName))

    /** The rule of `behavior` that matches a path call: deny/ask match the path or its real path in any case. */
    const pathRule = (toolName: string, behavior: Behavior, paths: { readonly lexical: string; readonly real: string }) =>
      rulesFor(toolName, behavior).find((entry) => {
        if (entry.path === undefined) return entry.rule.specifier === undefined
        if (behavior === "allow") return matchesPath(entry.path, paths.real, false)
        return matchesPath(entry.path, paths.real, true) || matchesPath(entry.path, paths.lexical, true)
      })

    const denyMessage = (toolName: string, entry: CompiledRule, what: string) =>
      `Permission to use ${toolName}${what} has been denied by the rule ${ruleLabel(entry.rule)} in ${describeSource(entry.rule.source)}. ` +
      "Do not try to work around this rule; use another approach or tell the user."

    // Protected paths that exist in known places: what a write reaching under a directory (`rm -r .`) may take along.
    const protectedLocations = [...roots.flatMap(rootProtectedLocations), weftHome, ...homeProtectedLocations(yield* realPath(home))]

    /** A deny or ask rule whose paths all lie under what a tree write (or a pattern) reaches: `rm -r .` and `./secrets/**`. */
    const ruleUnder = (toolName: string, behavior: Behavior, reached: ReadonlyArray<string>) =>
      rulesFor(toolName, behavior).find((entry) => {
        const root = entry.path?.fixedRoot
        return root !== undefined && reached.some((path) => mayContain(path, root))
      })

    /** The decision for a file access (a file tool, or a Bash redirection or program writing a file). */
    const checkPath = Effect.fn("Permissions.checkPath")(function* (
      toolName: string,
      lexicalPath: string,
      access: "read" | "write",
      readOnlyTool: boolean,
      shape: WriteShape = plainWrite
    ) {
      const lexical = resolve(cwd, lexicalPath)
      const real = yield* realPath(lexical)
      const paths = { lexical, real }
      // A pattern or a tree reaches what lies under it: rules and protected paths there count too.
      const reaching = access === "write" && (shape.tree || shape.glob)
      const reached = reaching ? [lexical, real] : []
      const denied = pathRule(toolName, "deny", paths) ?? (reaching ? ruleUnder(toolName, "deny", reached) : undefined)
      if (denied !== undefined) return deny(denyMessage(toolName, denied, ` on ${lexical}`))
      const protection =
        access === "write"
          ? (protectedReason(lexical, weftHome) ??
            protectedReason(real, weftHome) ??
            (shape.glob ? protectedPatternReason(lexical) : undefined) ??
            (reaching ? withProtected(reached.map((path) => protectedUnder(path, protectedLocations)).find((found) => found !== undefined)) : undefined))
          : undefined
      if (protection !== undefined) return ask(`${toolName} would write ${lexical}, and ${protection}: every change to it is asked about.`)
      const asked = pathRule(toolName, "ask", paths) ?? (reaching ? ruleUnder(toolName, "ask", reached) : undefined)
      if (asked !== undefined) return ask(`${toolName} on ${lexical} matches the rule ${ruleLabel(asked.rule)}, which asks.`)
      if (mode === "bypassPermissions") return allow
      if (mode === "plan" && !readOnlyTool) return deny(`${toolName} changes files, and the session is in plan mode, where only read-only tools run.`)
      if (pathRule(toolName, "allow", paths) !== undefined) return allow
      const inside = isInsideAny(real, roots)
      if (access === "read" && inside) return allow
      if (access === "write" && inside && (mode === "acceptEdits" || shape.granted)) return allow
      return ask(
        inside
          ? `${toolName} would change ${lexical}.`
          : `${lexical} is outside the workspace (${roots.join(", ")}).`
      )
    })

    const specifiersOf = (behavior: Behavior) =>
      rulesFor("Bash", behavior).filter((entry) => entry.rule.tool === "Bash").map((entry) => entry.rule.specifier)

    const bashRules: BashCheck.BashRuleSet = { allow: specifiersOf("allow"), ask: specifiersOf("ask"), deny: specifiersOf("deny") }
    // Where Bash runs now (after a `cd`), for the relative paths of a command: the session's shell, when the
    // context has one (the session provides it before Permissions); the project directory otherwise.
    const shell = yield* Effect.serviceOption(ShellSession)
    const shellDirectory = shell._tag === "Some" ? shell.value.cwd : Effect.succeed(cwd)

    const checkBash = Effect.fn("Permissions.checkBash")(function* (command: string) {
      const verdict = yield* bash.check(command, bashRules)
      switch (verdict._tag) {
        case "Deny":
          return deny(`${verdict.reason} Do not try to work around this rule; use another approach or tell the user.`)
        case "Ask":
          if (verdict.unanalysable && mode === "bypassPermissions") return allow
          if (mode === "plan") return deny(`${verdict.reason} In plan mode only read-only commands run.`)
          return ask(verdict.reason)
        case "Allow":
        case "NoRule": {
          const start = yield* shellDirectory
          // A `cd` earlier in the line moves where a relative path lands (`cd .git && echo x > config`): such a path
          // is checked from every directory the line may be in by then, the strictest answer standing.
          const directories = [start]
          let unknownDirectory = false
          for (const change of verdict.directoryChanges ?? []) {
            if (change === undefined || directories.length > maxDirectories) {
              unknownDirectory = true
              continue
            }
            for (const directory of [...directories]) {
              const next = resolve(directory, expandHome(change, home))
              if (!directories.includes(next)) directories.push(next)
            }
          }
          const checkFromEach = Effect.fn("Permissions.checkBashPath")(function* (
            toolName: string,
            path: string,
            access: "read" | "write",
            readOnlyTool: boolean,
            shape: WriteShape = plainWrite
          ) {
            const expanded = expandHome(path, home)
            if (unknownDirectory && !isAbsolute(expanded)) {
              return ask(`\`${path}\` is relative to a directory the command changes to, which is known only when it runs.`)
            }
            let strictest: Decision = allow
            for (const directory of isAbsolute(expanded) ? [start] : directories) {
              const decision = yield* checkPath(toolName, resolve(directory, expanded), access, readOnlyTool, shape)
              if (decision._tag === "Deny") return decision
              if (decision._tag === "Ask" && strictest._tag === "Allow") strictest = decision
            }
            return strictest
          })
          // Redirections write files: each is checked as an edit of that file.
          let pending: Decision | undefined
          for (const target of verdict.writes) {
            if (target === undefined) {
              pending ??= ask("The command writes to a file whose name is known only when it runs.")
              continue
            }
            const decision = yield* checkFromEach("Edit", target, "write", false)
            if (decision._tag === "Deny") return decision
            if (decision._tag === "Ask") pending ??= decision
          }
          // Files the programs write (`cp x dest`, `rm -r dir`): edits of those files, allow rule or not.
          for (const file of verdict.files ?? []) {
            if (file.path === undefined) {
              pending ??= ask("The command writes a file whose name is known only when it runs.")
              continue
            }
            const decision = yield* checkFromEach("Edit", file.path, "write", false, file)
            if (decision._tag === "Deny") return decision
            if (decision._tag === "Ask") pending ??= decision
          }
          if (verdict._tag === "NoRule") {
            for (const command of verdict.uncovered) {
              if (command.readOnly._tag === "NotReadOnly") {
                if (mode === "bypassPermissions") continue
                if (mode === "plan") return deny(`\`${command.source}\` is not read-only (${command.readOnly.reason}), and in plan mode only read-only commands run.`)
                pending ??= ask(`\`${command.source}\` needs approval: ${command.readOnly.reason}.`)
                continue
              }
              for (const path of command.readOnly.paths) {
                const decision = yield* checkFromEach("Read", path, "read", true)
                if (decision._tag === "Deny") return decision
                if (decision._tag === "Ask") pending ??= decision
              }
            }
          }
          return pending ?? allow
        }
      }
    })

    const checkOther = (request: CheckRequest, what: string, matches: (entry: CompiledRule) => boolean): Decision => {
      const denied = rulesFor(request.toolName, "deny").find(matches)
      if (denied !== undefined) return deny(denyMessage(request.toolName, denied, what))
      const asked = rulesFor(request.toolName, "ask").find(matches)
      if (asked !== undefined) return ask(`${request.toolName}${what} matches the rule ${ruleLabel(asked.rule)}, which asks.`)
      if (mode === "bypassPermissions") return allow
      if (rulesFor(request.toolName, "allow").some(matches)) return allow
      if (noPermissionTools.has(request.toolName)) return allow
      if (mode === "plan" && !request.readOnly) return deny(`${request.toolName} is not read-only, and the session is in plan mode, where only read-only tools run.`)
      // A read-only tool that touches nothing named runs; one that reaches out (WebFetch) is asked about.
      if (request.readOnly && request.target._tag === "None") return allow
      return ask(`${request.toolName}${what} needs approval.`)
    }

    const decide = Effect.fn("Permissions.check")(function* (request: CheckRequest) {
      const target = request.target
      if (request.toolName === "Bash" && target._tag === "Command") {
        // A bare deny of Bash denies without parsing.
        const bare = rulesFor("Bash", "deny").find((entry) => entry.rule.specifier === undefined)
        if (bare !== undefined) return deny(denyMessage("Bash", bare, ""))
        return yield* checkBash(target.command)
      }
      if (target._tag === "Path") {
        return yield* checkPath(request.toolName, target.path, target.access, request.readOnly)
      }
      if (target._tag === "Url") {
        const host = hostOf(target.url)
        return checkOther(request, ` on ${target.url}`, (entry) =>
          entry.rule.specifier === undefined ||
          (host !== undefined && entry.rule.specifier.startsWith("domain:") && hostMatches(entry.rule.specifier.slice(7), host))
        )
      }
      const text = target._tag === "Command" ? target.command : undefined
      return checkOther(request, text === undefined ? "" : ` (${text})`, (entry) => entry.rule.specifier === undefined || entry.rule.specifier === text)
    })

    const check = (request: CheckRequest): Effect.Effect<Decision> =>
      Effect.map(decide(request), (decision) =>
        decision._tag === "Ask" && mode === "dontAsk"
          ? deny(`Permission to use ${request.toolName} was not granted: ${decision.reason} The session is in dontAsk mode, where nothing is asked.`)
          : decision
      )

    const prompt = Effect.fn("Permissions.prompt")(function* (request: CheckRequest, reason: string) {
      const promptRequest: PromptRequest = {
        toolName: request.toolName,
        toolUseId: request.toolUseId,
        input: request.input,
        target: request.target,
        reason
      }
      if (mode === "dontAsk") return deny(unansweredReason(promptRequest))
      const answer = yield* prompter.ask(promptRequest)
      return answer._tag === "Allow" ? allow : deny(answer.reason)
    })

    return { mode, check, prompt, warnings }
  })

/**
 * How a write is reached, beyond the path itself: `tree`, what lies under it is written too (a recursive delete, a
 * rename); `glob`, the path is a shell pattern; `granted`, an allow rule for the Bash command that writes stands for
 * the edit inside the workspace (`Bash(mkdir:*)` makes directories there in default mode; outside it is asked about).
 */
interface WriteShape {
  readonly tree: boolean
  readonly glob: boolean
  readonly granted: boolean
}
const plainWrite: WriteShape = { tree: false, glob: false, granted: false }

const withProtected = (location: string | undefined): string | undefined =>
  location === undefined ? undefined : `it reaches ${location}, which is protected`

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "")
  } catch {
    return undefined
  }
}

/** `example.com` is that host; `*.example.com` its subdomains (not itself). Compared by whole labels. */
const hostMatches = (pattern: string, host: string): boolean => {
  const wanted = pattern.toLowerCase().replace(/\.$/, "")
  if (wanted.startsWith("*.")) return host.endsWith(wanted.slice(1))
  return host === wanted
}

// ---------------------------------------------------------------------------------------------------------------

const ruleRe = /^([^()]+)(?:\((.*)\))?$/s

const targetText = (target: ToolTarget): string | undefined => {
  switch (target._tag) {
    case "Path":
      return target.path
    case "Command":
      return target.command
    case "Url":
      return target.url
    case "None":
      return undefined
  }
}

const makePermissive = (deniedRules: ReadonlyArray<string>, mode: PermissionMode): Interface => {
  const rules = deniedRules.flatMap((rule) => {
    const match = ruleRe.exec(rule.trim())
    return match?.[1] ? [{ tool: match[1].trim(), spec: match[2] }] : []
  })
  return {
    mode,
    warnings: [],
    prompt: (request) => Effect.succeed(deny(`Permission to use ${request.toolName} was not granted.`)),
    check: (request) =>
      Effect.sync(() => {
        for (const rule of rules) {
          if (rule.tool !== request.toolName) continue
          if (rule.spec === undefined || rule.spec === targetText(request.target)) {
            return deny(`Permission to use ${request.toolName} has been denied by the rule "${rule.spec === undefined ? rule.tool : `${rule.tool}(${rule.spec})`}".`)
          }
        }
        return allow
      })
  }
}

// The entry points at the module's top level: `import { Permissions } from "weft"` reads `Permissions.layer...(...)`, and
// `Permissions.Permissions` is the Tag (`yield* Permissions.Permissions`).
export const layer = Permissions.layer
export const layerFromServices = Permissions.layerFromServices
export const permissive = Permissions.permissive
export const layerPermissive = Permissions.layerPermissive
