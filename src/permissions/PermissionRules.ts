/**
 * The permission rules of a session: gathered from every settings scope and then the CLI (Rules.ts parses each),
 * compiled (path patterns anchored at their real paths, Bash specifiers validated, WebFetch domains checked), and
 * looked up by tool. Deny and ask rules match a path liberally (as written or its real path, in any letter case),
 * allow rules strictly (the real path). A deny or ask rule that does not parse holds for its whole tool; an allow
 * rule that does not parse allows nothing.
 */
import * as Effect from "effect/Effect"
import type { Interface as SettingsInterface } from "../context/Settings.js"
import type * as BashCheck from "./BashCheck.js"
import { compilePathPattern, matchesPath, mayContain, type PathPattern, realPath } from "./PathGuard.js"
import { type Behavior, collect, fileEditTools, fileReadTools, type Rule, ruleCoversTool, type RuleSource } from "./Rules.js"

const pathTools: ReadonlySet<string> = new Set([...fileEditTools, ...fileReadTools])

export interface CompiledRule {
  readonly rule: Rule
  /** For path tools: the compiled pattern (undefined for a bare tool rule). */
  readonly path?: PathPattern
}

export const ruleLabel = (rule: Rule) => (rule.specifier === undefined ? rule.tool : `${rule.tool}(${rule.specifier})`)

const describeSource = (source: RuleSource) => (source.scope === "cli" ? source.origin : `${source.scope} settings (${source.origin})`)

export const denyMessage = (toolName: string, entry: CompiledRule, what: string) =>
  `Permission to use ${toolName}${what} has been denied by the rule ${ruleLabel(entry.rule)} in ${describeSource(entry.rule.source)}. ` +
  "Do not try to work around this rule; use another approach or tell the user."

export interface CompiledRules {
  /** The rules of `behavior` that cover `toolName`. */
  readonly rulesFor: (toolName: string, behavior: Behavior) => ReadonlyArray<CompiledRule>
  /** The rule of `behavior` that matches a path call: deny/ask match the path or its real path in any case. */
  readonly pathRule: (
    toolName: string,
    behavior: Behavior,
    paths: { readonly lexical: string; readonly real: string }
  ) => CompiledRule | undefined
  /** A deny or ask rule whose paths all lie under what a tree write (or a pattern) reaches: `rm -r .` and `./secrets/**`. */
  readonly ruleUnder: (toolName: string, behavior: Behavior, reached: ReadonlyArray<string>) => CompiledRule | undefined
}

export interface RuleOptions {
  /** `--allowedTools`: allow rules. */
  readonly allowedTools?: ReadonlyArray<string>
  /** `--disallowedTools`: deny rules. */
  readonly disallowedTools?: ReadonlyArray<string>
  /** Rules added while the session runs (a host's, an "always allow"), each with where it is kept. */
  readonly added?: ReadonlyArray<{ readonly text: string; readonly behavior: Behavior; readonly source: RuleSource }>
}

/** The rules of every settings scope, then the CLI's, compiled; what does not parse is told in `warnings`. */
export const compileRules = (
  settings: SettingsInterface,
  options: RuleOptions,
  bash: BashCheck.Interface,
  warnings: Array<string>
): Effect.Effect<CompiledRules> =>
  Effect.gen(function* () {
    const home = settings.home
    const cwd = settings.projectDir

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
    for (const rule of options.added ?? []) gather([rule.text], rule.behavior, rule.source)

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

    const rulesFor = (toolName: string, behavior: Behavior) =>
      compiled.filter((entry) => entry.rule.behavior === behavior && ruleCoversTool(entry.rule.tool, toolName))

    const pathRule = (toolName: string, behavior: Behavior, paths: { readonly lexical: string; readonly real: string }) =>
      rulesFor(toolName, behavior).find((entry) => {
        if (entry.path === undefined) return entry.rule.specifier === undefined
        if (behavior === "allow") return matchesPath(entry.path, paths.real, false)
        return matchesPath(entry.path, paths.real, true) || matchesPath(entry.path, paths.lexical, true)
      })

    const ruleUnder = (toolName: string, behavior: Behavior, reached: ReadonlyArray<string>) =>
      rulesFor(toolName, behavior).find((entry) => {
        const root = entry.path?.fixedRoot
        return root !== undefined && reached.some((path) => mayContain(path, root))
      })

    const rules: CompiledRules = { rulesFor, pathRule, ruleUnder }
    return rules
  })
