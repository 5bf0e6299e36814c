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
 *      file edits inside the workspace run; plan refuses everything that is not read-only, allow rule or not (it
 *      comes before step 4 there); the rest asks;
 *   6. dontAsk turns every Ask into a Deny.
 * Deny and ask rules match liberally (a path as written or its real path, in any letter case; a Bash command that
 * may match); allow rules strictly (the real path; a command that must match). Bash lines are parsed (BashCheck.ts,
 * on ShellCommand.ts): every command in them is checked, redirections are writes, so are the files the common
 * writing programs name (`cp`, `mv`, `rm`, `tee`...: ProgramWrites.ts) and those options write (ShellWrites.ts), and
 * a line that cannot be analysed is never allowed by a rule.
 *
 * `make` puts the parts together: the rules (PermissionRules.ts), the mode (PermissionModes.ts), file accesses
 * (PathCheck.ts), the files of a Bash line (BashFiles.ts), URLs and the other tools (OtherToolCheck.ts).
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Semaphore from "effect/Semaphore"
import type { PermissionUpdate, PermissionUpdateDestination } from "../domain/AgentEvent.js"
import { join, resolve } from "node:path"
import { type PermissionMode, permissionModes, Settings } from "../context/Settings.js"
import { Sandbox } from "../sandbox/Sandbox.js"
import { ShellSession } from "../tools/ShellSession.js"
import * as BashCheck from "./BashCheck.js"
import { checkBashFiles } from "./BashFiles.js"
import { hostMatches, hostOf, makeOtherToolCheck } from "./OtherToolCheck.js"
import { makePathCheck, workspaceRoots } from "./PathCheck.js"
import { realPath } from "./PathGuard.js"
import { allow, ask, type CheckRequest, type Decision, deny } from "./PermissionDecision.js"
import { modeOf, unlessAsking } from "./PermissionModes.js"
import { compileRules, denyMessage } from "./PermissionRules.js"
import { makePermissive } from "./PermissivePermissions.js"
import * as ShellCheck from "./ShellCheck.js"
import { Prompter, type PromptRequest, unansweredReason } from "./Prompter.js"
import type { Behavior, RuleSource } from "./Rules.js"
import * as RuleWriter from "./RuleWriter.js"

export type { PermissionMode }
export { permissionModes }
export { allow, ask, type CheckRequest, type Decision, deny } from "./PermissionDecision.js"
export type { Behavior, Rule, RuleSource } from "./Rules.js"

export interface Interface {
  /** The mode in force now (the init frame reports it; it changes with `setMode`). */
  readonly mode: PermissionMode
  /** The same, read as an Effect. */
  readonly currentMode?: Effect.Effect<PermissionMode>
  readonly check: (request: CheckRequest) => Effect.Effect<Decision>
  /**
   * Puts a call that must be asked about to the Prompter (the call's context's, else the one the permissions were
   * made with): Allow (with the input approved, when the person changed it), or Deny with a reason for the model
   * (and `interrupt` when the turn is to end). An allow's rule updates and mode are applied here.
   */
  readonly prompt: (request: CheckRequest, reason: string, details?: PromptDetails) => Effect.Effect<Decision>
  /** Rules that did not parse, a refused mode: for stderr. */
  readonly warnings: ReadonlyArray<string>
  /** Changes the mode for the next checks (absent on permissions whose mode is fixed). */
  readonly setMode?: (mode: PermissionMode) => Effect.Effect<void, PermissionUpdateError>
  /**
   * Adds rules for the next checks, kept where `destination` says: the session only (`session`, `cliArg`), or
   * the settings file of a scope, rewritten atomically (absent on permissions whose rules are fixed).
   */
  readonly addRules?: (
    rules: ReadonlyArray<string>,
    behavior: Behavior,
    destination: PermissionUpdateDestination
  ) => Effect.Effect<void, PermissionUpdateError>
  /**
   * The same rules (those added later too) checked in another mode, fixed: what a read-only subagent runs under
   * (plan). Absent: the permissions cannot be viewed so.
   */
  readonly inMode?: (mode: PermissionMode) => Interface
}

/** What a prompt shows beside the call: the path that made it ask, and the rules an "always allow" would add. */
export interface PromptDetails {
  readonly blockedPath?: string
  readonly suggestions?: ReadonlyArray<PermissionUpdate>
}

/** A mode or rule change refused (bypassPermissions disabled), or a settings file that could not be written. */
export class PermissionUpdateError extends Data.TaggedError("PermissionUpdateError")<{ readonly message: string }> {}

/** What `make` is given beside the services it reads (the merged Settings; the Prompter and the ShellSession when there are). */
export interface Options {
  /** `--permission-mode` / `--dangerously-skip-permissions`; else `permissions.defaultMode`; else default. */
  readonly mode?: PermissionMode
  /** `--allowedTools`: allow rules. */
  readonly allowedTools?: ReadonlyArray<string>
  /** `--disallowedTools`: deny rules. */
  readonly disallowedTools?: ReadonlyArray<string>
  /** `--add-dir`: more workspace roots. */
  readonly additionalDirectories?: ReadonlyArray<string>
  /** weft's home (protected); default `$WEFT_HOME` else `~/.weft`, as the settings loader found it. */
  readonly weftHome?: string
  /**
   * Whether `setMode` may enter bypassPermissions (`--allow-dangerously-skip-permissions`); a session started in it
   * may always go back to it. Settings that disable the mode win.
   */
  readonly allowBypassPermissions?: boolean
  /** The Bash analyser; default the tree-sitter parse (loaded on the first Bash call checked). */
  readonly bash?: BashCheck.Interface
}

export class Permissions extends Context.Service<Permissions, Interface>()("weft/Permissions") {
  /**
   * The real permissions: rules from every scope of the Settings in context and the CLI, the mode, the workspace
   * (see above). The context's Prompter answers asks (nobody, an ask being a denial, when there is none); a Bash
   * command's relative paths land in the ShellSession's current directory when the context has one.
   */
  static make = (options: Options = {}): Effect.Effect<Interface, never, Settings> => make(options)

  /** `make` as a layer. */
  static layer = (options: Options = {}): Layer.Layer<Permissions, never, Settings> => Layer.effect(Permissions, make(options))

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

export const make = (options: Options = {}): Effect.Effect<Interface, never, Settings> =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const home = settings.home
    const cwd = settings.projectDir
    const warnings: Array<string> = []
    const bash = options.bash ?? ShellCheck.parsed
    const prompter = Option.getOrElse(yield* Effect.serviceOption(Prompter), () => Prompter.none)
    const weftHome = yield* realPath(resolve(options.weftHome ?? join(home, ".weft")))

    // The workspace: the project, --add-dir, additionalDirectories (as real paths).
    const roots = yield* workspaceRoots(settings, options.additionalDirectories)

    // Where Bash runs now (after a `cd`), for the relative paths of a command: the session's shell, when the
    // context has one (the session provides it before Permissions); the project directory otherwise.
    const shell = yield* Effect.serviceOption(ShellSession)
    const shellDirectory = shell._tag === "Some" ? shell.value.cwd : Effect.succeed(cwd)

    // The OS sandbox the session's commands run in, when there is one and it is on.
    const sandbox = Option.getOrUndefined(yield* Effect.serviceOption(Sandbox))
    const sandboxOn = sandbox !== undefined && sandbox.state._tag === "On" ? sandbox : undefined


    /** The checks for one mode and one rule set, compiled; `check` reads the set in force when it starts. */
    const compile = (mode: PermissionMode, added: ReadonlyArray<AddedRule>, into: Array<string>) =>
      Effect.gen(function* () {
        // Rules from every source, then the CLI's, then those added while the session runs, compiled.
        const rules = yield* compileRules(settings, { ...options, added }, bash, into)
        const { rulesFor } = rules
        const checkPath = yield* makePathCheck({ cwd, home, weftHome, roots, mode, rules })
        const specifiersOf = (behavior: Behavior) =>
          rulesFor("Bash", behavior).filter((entry) => entry.rule.tool === "Bash").map((entry) => entry.rule.specifier)
        const bashRules: BashCheck.BashRuleSet = { allow: specifiersOf("allow"), ask: specifiersOf("ask"), deny: specifiersOf("deny") }

        // Plan mode: an allow rule does not make a command run; only read-only commands do.
        const planRules: BashCheck.BashRuleSet = { ...bashRules, allow: [] }
        const checkBash = Effect.fn("Permissions.checkBash")(function* (command: string, sandboxed: boolean) {
          const verdict = yield* bash.check(command, mode === "plan" ? planRules : bashRules)
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
              return yield* checkBashFiles(verdict, start, { command, home, mode, checkPath, sandboxed })
            }
          }
        })

        const checkOther = makeOtherToolCheck(rules, mode)

        const decide = Effect.fn("Permissions.check")(function* (request: CheckRequest) {
          const target = request.target
          if (request.toolName === "Bash" && target._tag === "Command") {
            // A bare deny of Bash denies without parsing.
            const bare = rulesFor("Bash", "deny").find((entry) => entry.rule.specifier === undefined)
            if (bare !== undefined) return deny(denyMessage("Bash", bare, ""))
            const escape = sandboxOn !== undefined && asksToLeaveSandbox(request.input)
            if (escape && sandboxOn?.config.allowUnsandboxedCommands === false) {
              return deny(
                "The command asks to run outside the sandbox (dangerouslyDisableSandbox), which the settings forbid (sandbox.allowUnsandboxedCommands is false). Run it inside the sandbox, or tell the user what the sandbox refused."
              )
            }
            // autoAllowBashIfSandboxed: what runs inside the sandbox needs no rule beyond it.
            const autoAllow =
              sandboxOn !== undefined &&
              sandboxOn.config.autoAllowBashIfSandboxed &&
              !escape &&
              !(yield* sandboxOn.excludes(target.command))
            const decision = yield* checkBash(target.command, autoAllow)
            if (!escape || mode === "bypassPermissions" || decision._tag === "Deny") return decision
            const leaving = "The command asks to run outside the sandbox (dangerouslyDisableSandbox), with the user's full access."
            return ask(decision._tag === "Ask" ? `${decision.reason} ${leaving}` : leaving)
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
        const compiled: Compiled = { mode, added, decide }
        return compiled
      })

    // The mode and the rules in force; a change compiles a new set, and a check in flight keeps the one it read.
    const initialMode = modeOf(options.mode, settings, warnings)
    const state = yield* Ref.make(yield* compile(initialMode, [], warnings))
    const changing = yield* Semaphore.make(1)
    const bypassAllowed =
      settings.value.permissions?.disableBypassPermissionsMode !== "disable" &&
      (initialMode === "bypassPermissions" || options.allowBypassPermissions === true)

    const check = (request: CheckRequest): Effect.Effect<Decision> =>
      Effect.flatMap(Ref.get(state), (current) =>
        Effect.map(current.decide(request), (decision) => unlessAsking(current.mode, request, decision))
      )

    const recompile = (change: (current: Compiled) => { readonly mode: PermissionMode; readonly added: ReadonlyArray<AddedRule> }) =>
      changing.withPermit(
        Effect.gen(function* () {
          const next = change(yield* Ref.get(state))
          const notes: Array<string> = []
          yield* Ref.set(state, yield* compile(next.mode, next.added, notes))
          return notes
        })
      )

    const setMode = Effect.fn("Permissions.setMode")(function* (mode: PermissionMode) {
      if (mode === "bypassPermissions" && !bypassAllowed) {
        return yield* new PermissionUpdateError({
          message:
            settings.value.permissions?.disableBypassPermissionsMode === "disable"
              ? "bypassPermissions is disabled by settings (permissions.disableBypassPermissionsMode)."
              : "bypassPermissions can only be entered by a session started in it or with --allow-dangerously-skip-permissions."
        })
      }
      yield* recompile((current) => ({ mode, added: current.added }))
    })

    const addRules = Effect.fn("Permissions.addRules")(function* (
      texts: ReadonlyArray<string>,
      behavior: Behavior,
      destination: PermissionUpdateDestination
    ) {
      const target = RuleWriter.fileOf(destination, { projectDir: cwd, home })
      if (target !== undefined) {
        yield* RuleWriter.addRules(target.path, behavior, texts).pipe(
          Effect.mapError((error) => new PermissionUpdateError({ message: error.message }))
        )
      }
      const source: RuleSource =
        target === undefined ? { scope: "cli", origin: "the session", root: cwd } : { scope: target.scope, origin: target.path, root: cwd }
      const notes = yield* recompile((current) => ({
        mode: current.mode,
        added: [...current.added, ...texts.map((text) => ({ text, behavior, source }))]
      }))
      if (notes.length > 0) yield* Effect.logWarning(notes.join("\n"))
    })

    /** An allow's updates: rules kept where their destination says, the mode set; the others are not supported. */
    const applyUpdates = (updates: ReadonlyArray<PermissionUpdate>) =>
      Effect.forEach(updates, (update) => {
        switch (update.type) {
          case "addRules":
            return addRules(update.rules.map(ruleText), update.behavior, update.destination)
          case "setMode": {
            const mode = permissionModes.find((known) => known === update.mode)
            return mode === undefined ? Effect.void : setMode(mode)
          }
          default:
            return Effect.logWarning(`weft: a permission update of type ${update.type} is not supported; ignored.`)
        }
      }, { discard: true }).pipe(Effect.catch((error) => Effect.logWarning(`weft: ${error.message}`)))

    const prompt = Effect.fn("Permissions.prompt")(function* (request: CheckRequest, reason: string, details?: PromptDetails) {
      const mode = (yield* Ref.get(state)).mode
      const promptRequest: PromptRequest = {
        toolName: request.toolName,
        toolUseId: request.toolUseId,
        input: request.input,
        target: request.target,
        reason,
        ...(details?.blockedPath === undefined ? {} : { blockedPath: details.blockedPath }),
        suggestions: details?.suggestions ?? suggestionsFor(request)
      }
      if (mode === "dontAsk") return deny(unansweredReason(promptRequest))
      // The Prompter of the call's context (a Session's host) wins over the one the permissions were made with.
      const asker = Option.getOrElse(yield* Effect.serviceOption(Prompter), () => prompter)
      const answer = yield* asker.ask(promptRequest)
      if (answer._tag === "Deny") {
        const refused: Decision = answer.interrupt === true ? { _tag: "Deny", reason: answer.reason, interrupt: true } : deny(answer.reason)
        return refused
      }
      if (answer.updatedPermissions !== undefined) yield* applyUpdates(answer.updatedPermissions)
      const allowed: Decision = answer.updatedInput === undefined ? allow : { _tag: "Allow", updatedInput: answer.updatedInput }
      return allowed
    })

    // A view in another mode compiles the rules in force for it once, again only after they changed.
    const views = new Map<PermissionMode, { readonly source: Compiled; readonly view: Compiled }>()
    const compiledIn = (mode: PermissionMode) =>
      Effect.gen(function* () {
        const current = yield* Ref.get(state)
        const cached = views.get(mode)
        if (cached !== undefined && cached.source === current) return cached.view
        const view = yield* compile(mode, current.added, [])
        views.set(mode, { source: current, view })
        return view
      })
    const inMode = (mode: PermissionMode): Interface => ({
      mode,
      currentMode: Effect.succeed(mode),
      check: (request) =>
        Effect.flatMap(compiledIn(mode), (compiled) => Effect.map(compiled.decide(request), (decision) => unlessAsking(mode, request, decision))),
      prompt,
      warnings,
      inMode
    })

    const service: Interface = {
      get mode() {
        return Ref.getUnsafe(state).mode
      },
      inMode,
      currentMode: Effect.map(Ref.get(state), (current) => current.mode),
      check,
      prompt,
      warnings,
      setMode,
      addRules
    }
    return service
  })

/** A rule added while the session runs, and where it is kept. */
interface AddedRule {
  readonly text: string
  readonly behavior: Behavior
  readonly source: RuleSource
}

interface Compiled {
  readonly mode: PermissionMode
  readonly added: ReadonlyArray<AddedRule>
  readonly decide: (request: CheckRequest) => Effect.Effect<Decision>
}

/** `Tool` or `Tool(content)`, as rules are written. */
const ruleText = (rule: { readonly toolName: string; readonly ruleContent?: string }) =>
  rule.ruleContent === undefined || rule.ruleContent === "" ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`

/**
 * What an "always allow" would add for a call: the exact command for Bash, the tool for the rest (Claude Code
 * suggests the same for a session).
 */
export const suggestionsFor = (request: CheckRequest): ReadonlyArray<PermissionUpdate> => {
  const rule =
    request.target._tag === "Command" && request.toolName === "Bash"
      ? { toolName: "Bash", ruleContent: request.target.command }
      : { toolName: request.toolName }
  return [{ type: "addRules", rules: [rule], behavior: "allow", destination: "localSettings" }]
}

/** Does a Bash call's input ask to run outside the sandbox. */
const asksToLeaveSandbox = (input: unknown): boolean =>
  typeof input === "object" && input !== null && "dangerouslyDisableSandbox" in input && input.dangerouslyDisableSandbox === true

// The entry points at the module's top level: `import { Permissions } from "weft"` reads `Permissions.layer...(...)`, and
// `Permissions.Permissions` is the Tag (`yield* Permissions.Permissions`).
export const layer = Permissions.layer
export const permissive = Permissions.permissive
export const layerPermissive = Permissions.layerPermissive
