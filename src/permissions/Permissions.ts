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
 *
 * `make` puts the parts together: the rules (PermissionRules.ts), the mode (PermissionModes.ts), file accesses
 * (PathCheck.ts), the files of a Bash line (BashFiles.ts), URLs and the other tools (OtherToolCheck.ts).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
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
import type { Behavior } from "./Rules.js"

export type { PermissionMode }
export { permissionModes }
export { allow, ask, type CheckRequest, type Decision, deny } from "./PermissionDecision.js"
export type { Behavior, Rule, RuleSource } from "./Rules.js"

export interface Interface {
  /** The mode in force (the init frame reports it). */
  readonly mode: PermissionMode
  readonly check: (request: CheckRequest) => Effect.Effect<Decision>
  /** Puts a call that must be asked about to the Prompter: Allow, or Deny with a reason for the model. */
  readonly prompt: (request: CheckRequest, reason: string) => Effect.Effect<Decision>
  /** Rules that did not parse, a refused mode: for stderr. */
  readonly warnings: ReadonlyArray<string>
}

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

    // Rules from every source, then the CLI's, compiled.
    const rules = yield* compileRules(settings, options, bash, warnings)
    const { rulesFor } = rules

    // The mode.
    const mode = modeOf(options.mode, settings, warnings)

    // The workspace: the project, --add-dir, additionalDirectories (as real paths).
    const roots = yield* workspaceRoots(settings, options.additionalDirectories)

    const checkPath = yield* makePathCheck({ cwd, home, weftHome, roots, mode, rules })

    const specifiersOf = (behavior: Behavior) =>
      rulesFor("Bash", behavior).filter((entry) => entry.rule.tool === "Bash").map((entry) => entry.rule.specifier)

    const bashRules: BashCheck.BashRuleSet = { allow: specifiersOf("allow"), ask: specifiersOf("ask"), deny: specifiersOf("deny") }
    // Where Bash runs now (after a `cd`), for the relative paths of a command: the session's shell, when the
    // context has one (the session provides it before Permissions); the project directory otherwise.
    const shell = yield* Effect.serviceOption(ShellSession)
    const shellDirectory = shell._tag === "Some" ? shell.value.cwd : Effect.succeed(cwd)

    // The OS sandbox the session's commands run in, when there is one and it is on.
    const sandbox = Option.getOrUndefined(yield* Effect.serviceOption(Sandbox))
    const sandboxOn = sandbox !== undefined && sandbox.state._tag === "On" ? sandbox : undefined

    const checkBash = Effect.fn("Permissions.checkBash")(function* (command: string, sandboxed: boolean) {
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
          return yield* checkBashFiles(verdict, start, { home, mode, checkPath, sandboxed })
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

    const check = (request: CheckRequest): Effect.Effect<Decision> =>
      Effect.map(decide(request), (decision) => unlessAsking(mode, request, decision))

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

/** Does a Bash call's input ask to run outside the sandbox. */
const asksToLeaveSandbox = (input: unknown): boolean =>
  typeof input === "object" && input !== null && "dangerouslyDisableSandbox" in input && input.dangerouslyDisableSandbox === true

// The entry points at the module's top level: `import { Permissions } from "weft"` reads `Permissions.layer...(...)`, and
// `Permissions.Permissions` is the Tag (`yield* Permissions.Permissions`).
export const layer = Permissions.layer
export const permissive = Permissions.permissive
export const layerPermissive = Permissions.layerPermissive
