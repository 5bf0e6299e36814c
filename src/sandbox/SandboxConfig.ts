/**
 * What the command sandbox enforces, from the settings of every scope, the `--sandbox` flag and the permission rules.
 *
 * Scopes: managed, `--settings` and the user's own file set anything. A project's own files (`.claude/settings.json`
 * and `settings.local.json`, which a repository can ship) may only tighten: turn the sandbox on, make an unavailable
 * sandbox fatal, forbid unsandboxed commands, ask for a strict allowlist, put hooks in the sandbox, and add to
 * `deniedDomains`, `denyWrite` and `denyRead`. Whatever else a project sets here (`enabled: false`, `allowWrite`,
 * `allowRead`, `allowedDomains`, `excludedCommands`, unix sockets, `autoAllowBashIfSandboxed`,
 * `allowUnsandboxedCommands: true`, `failIfUnavailable: false`, `hooks: false`) is ignored with a warning, trusted
 * project or not.
 *
 * Permission rules feed the lists (Claude Code's behaviour): `Edit(path)` allow rules add to `allowWrite`, `Edit`
 * deny rules to `denyWrite`, `Read(path)` deny rules to `denyRead`, `WebFetch(domain:host)` allow rules to
 * `allowedDomains` and deny rules to `deniedDomains`. A path rule with a glob contributes the directory before its
 * first wildcard; one with nothing before it (`Edit(*.ts)`, `Read(**\/.env)`) cannot be a mount and is left to the
 * permission layer. Allow rules count only from the scopes that may loosen.
 */
import { homedir } from "node:os"
import * as nodePath from "node:path"
import type { Interface as SettingsInterface, SandboxSettings, Scope } from "../context/Settings.js"
import { parseRuleText } from "../permissions/Rules.js"

export interface Network {
  readonly allowedDomains: ReadonlyArray<string>
  readonly deniedDomains: ReadonlyArray<string>
  readonly strictAllowlist: boolean
  readonly allowUnixSockets: ReadonlyArray<string>
  readonly allowAllUnixSockets: boolean
}

export interface Filesystem {
  /** Absolute paths, as written (resolved through symlinks when the sandbox starts). */
  readonly allowWrite: ReadonlyArray<string>
  readonly denyWrite: ReadonlyArray<string>
  readonly denyRead: ReadonlyArray<string>
  readonly allowRead: ReadonlyArray<string>
}

export interface Config {
  readonly enabled: boolean
  /** When the sandbox cannot start: refuse to run commands (weft's default), or run them unsandboxed and say so. */
  readonly failIfUnavailable: boolean
  readonly autoAllowBashIfSandboxed: boolean
  /** Whether `dangerouslyDisableSandbox` may be granted at all. */
  readonly allowUnsandboxedCommands: boolean
  /** Bash-rule patterns of commands that run outside the sandbox (still under the permission rules). */
  readonly excludedCommands: ReadonlyArray<string>
  /** weft's `sandbox.hooks`: hooks' commands run in the sandbox too (default: outside it, as in Claude Code). */
  readonly hooks: boolean
  readonly network: Network
  readonly filesystem: Filesystem
  /** Settings that were not applied, and why. */
  readonly warnings: ReadonlyArray<string>
}

export const disabled: Config = {
  enabled: false,
  failIfUnavailable: true,
  autoAllowBashIfSandboxed: false,
  allowUnsandboxedCommands: true,
  excludedCommands: [],
  hooks: false,
  network: { allowedDomains: [], deniedDomains: [], strictAllowlist: false, allowUnixSockets: [], allowAllUnixSockets: false },
  filesystem: { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [] },
  warnings: []
}

/** The scopes whose settings may loosen the sandbox; the others (a project's own files) only tighten it. */
const loosens = (scope: Scope | "cli"): boolean => scope !== "project" && scope !== "local"

/** The keys a project's file set that only a user may set (dotted within `network` / `filesystem`). */
const looseningKeys = (settings: SandboxSettings): Array<string> => {
  const keys: Array<string> = []
  if (settings.enabled === false) keys.push("enabled: false")
  if (settings.hooks === false) keys.push("hooks: false")
  if (settings.failIfUnavailable === false) keys.push("failIfUnavailable: false")
  if (settings.autoAllowBashIfSandboxed === true) keys.push("autoAllowBashIfSandboxed")
  if (settings.allowUnsandboxedCommands === true) keys.push("allowUnsandboxedCommands")
  if ((settings.excludedCommands ?? []).length > 0) keys.push("excludedCommands")
  if ((settings.network?.allowedDomains ?? []).length > 0) keys.push("network.allowedDomains")
  if (settings.network?.strictAllowlist === false) keys.push("network.strictAllowlist: false")
  if ((settings.network?.allowUnixSockets ?? []).length > 0) keys.push("network.allowUnixSockets")
  if (settings.network?.allowAllUnixSockets === true) keys.push("network.allowAllUnixSockets")
  if ((settings.filesystem?.allowWrite ?? []).length > 0) keys.push("filesystem.allowWrite")
  if ((settings.filesystem?.allowRead ?? []).length > 0) keys.push("filesystem.allowRead")
  return keys
}

/** A settings path as an absolute one: `~/x` under home, `//x` and `/x` absolute, anything else under `root`. */
export const resolveSettingPath = (path: string, root: string, home: string): string => {
  if (path === "~") return home
  if (path.startsWith("~/")) return nodePath.join(home, path.slice(2))
  if (path.startsWith("//")) return nodePath.normalize(path.slice(1))
  return nodePath.resolve(root, path)
}

const globChars = /[*?[\]{}]/

/**
 * The directory a permission rule's path pattern stands for, or undefined when it names no fixed directory. Rule
 * specifiers follow the permission layer: `//abs`, `~/path`, `/path` (from the settings' root), `./path`.
 */
export const rulePath = (specifier: string, root: string, home: string): string | undefined => {
  let base: string
  let rest: string
  if (specifier.startsWith("//")) {
    base = "/"
    rest = specifier.slice(2)
  } else if (specifier.startsWith("~/")) {
    base = home
    rest = specifier.slice(2)
  } else if (specifier.startsWith("/")) {
    base = root
    rest = specifier.slice(1)
  } else if (specifier.startsWith("./")) {
    base = root
    rest = specifier.slice(2)
  } else {
    return undefined
  }
  const fixed: Array<string> = []
  for (const part of rest.split("/")) {
    if (globChars.test(part)) break
    if (part !== "") fixed.push(part)
  }
  const path = nodePath.resolve(base, ...fixed)
  // A rule over the whole file system (or the whole home) is no mount to make.
  return path === "/" ? undefined : path
}

export interface RuleInput {
  readonly text: string
  readonly behavior: "allow" | "deny"
  readonly scope: Scope | "cli"
  readonly root: string
}

export interface Options {
  /** `--sandbox`: on for this run, whatever the settings say. */
  readonly flag?: boolean
  /** `--allowedTools` / `--disallowedTools`. */
  readonly cliAllowed?: ReadonlyArray<string>
  readonly cliDenied?: ReadonlyArray<string>
}

const unique = (items: ReadonlyArray<string>): Array<string> => [...new Set(items)]

/** Whether the sandbox is on (what `fromSettings` answers in `enabled`), without reading the rest: every run asks. */
export const isEnabled = (settings: SettingsInterface, flag: boolean | undefined): boolean => {
  if (flag === true) return true
  let enabled: boolean | undefined
  for (const source of settings.sources) {
    const value = source.settings.sandbox?.enabled
    if (value === undefined) continue
    if (!loosens(source.scope)) {
      if (value) return true
      continue
    }
    enabled ??= value
  }
  return enabled === true
}

/** The configuration the settings describe (see the module's comment). */
export const fromSettings = (settings: SettingsInterface, options: Options = {}): Config => {
  const home = settings.home === "" ? homedir() : settings.home
  const warnings: Array<string> = []
  // Scalars: the highest loosening scope that sets one; then a project's tightening on top.
  let enabled: boolean | undefined
  let failIfUnavailable: boolean | undefined
  let autoAllow: boolean | undefined
  let allowUnsandboxed: boolean | undefined
  let strict: boolean | undefined
  let allowAllUnix: boolean | undefined
  let hooks: boolean | undefined
  let tighten = { enabled: false, failIfUnavailable: false, autoAllowOff: false, allowUnsandboxedOff: false, strict: false, hooks: false }
  const lists = {
    excludedCommands: [] as Array<string>,
    allowedDomains: [] as Array<string>,
    deniedDomains: [] as Array<string>,
    allowUnixSockets: [] as Array<string>,
    allowWrite: [] as Array<string>,
    denyWrite: [] as Array<string>,
    denyRead: [] as Array<string>,
    allowRead: [] as Array<string>
  }
  const rules: Array<RuleInput> = []
  // Highest precedence first: the first scope to set a scalar wins.
  for (const source of settings.sources) {
    const sandbox = source.settings.sandbox
    const path = (item: string) => resolveSettingPath(item, source.root, home)
    for (const text of source.settings.permissions?.allow ?? []) rules.push({ text, behavior: "allow", scope: source.scope, root: source.root })
    for (const text of source.settings.permissions?.deny ?? []) rules.push({ text, behavior: "deny", scope: source.scope, root: source.root })
    if (sandbox === undefined) continue
    lists.deniedDomains.push(...(sandbox.network?.deniedDomains ?? []))
    lists.denyWrite.push(...(sandbox.filesystem?.denyWrite ?? []).map(path))
    lists.denyRead.push(...(sandbox.filesystem?.denyRead ?? []).map(path))
    if (!loosens(source.scope)) {
      const ignored = looseningKeys(sandbox)
      if (ignored.length > 0) {
        warnings.push(`weft: sandbox settings a project may not loosen were ignored in ${source.origin}: ${ignored.join(", ")}`)
      }
      tighten = {
        enabled: tighten.enabled || sandbox.enabled === true,
        failIfUnavailable: tighten.failIfUnavailable || sandbox.failIfUnavailable === true,
        autoAllowOff: tighten.autoAllowOff || sandbox.autoAllowBashIfSandboxed === false,
        allowUnsandboxedOff: tighten.allowUnsandboxedOff || sandbox.allowUnsandboxedCommands === false,
        strict: tighten.strict || sandbox.network?.strictAllowlist === true,
        hooks: tighten.hooks || sandbox.hooks === true
      }
      continue
    }
    enabled ??= sandbox.enabled
    failIfUnavailable ??= sandbox.failIfUnavailable
    autoAllow ??= sandbox.autoAllowBashIfSandboxed
    allowUnsandboxed ??= sandbox.allowUnsandboxedCommands
    strict ??= sandbox.network?.strictAllowlist
    allowAllUnix ??= sandbox.network?.allowAllUnixSockets
    hooks ??= sandbox.hooks
    lists.excludedCommands.push(...(sandbox.excludedCommands ?? []))
    lists.allowedDomains.push(...(sandbox.network?.allowedDomains ?? []))
    lists.allowUnixSockets.push(...(sandbox.network?.allowUnixSockets ?? []))
    lists.allowWrite.push(...(sandbox.filesystem?.allowWrite ?? []).map(path))
    lists.allowRead.push(...(sandbox.filesystem?.allowRead ?? []).map(path))
  }
  for (const text of options.cliAllowed ?? []) rules.push({ text, behavior: "allow", scope: "cli", root: settings.projectDir })
  for (const text of options.cliDenied ?? []) rules.push({ text, behavior: "deny", scope: "cli", root: settings.projectDir })
  for (const rule of rules) {
    const parsed = parseRuleText(rule.text)
    if (parsed._tag !== "Rule" || parsed.specifier === undefined) continue
    if (rule.behavior === "allow" && !loosens(rule.scope)) continue
    if (parsed.tool === "WebFetch" && parsed.specifier.startsWith("domain:")) {
      const host = parsed.specifier.slice("domain:".length).trim()
      if (host !== "") (rule.behavior === "allow" ? lists.allowedDomains : lists.deniedDomains).push(host)
      continue
    }
    if (parsed.tool !== "Edit" && parsed.tool !== "Read") continue
    const path = rulePath(parsed.specifier, rule.root, home)
    if (path === undefined) continue
    if (parsed.tool === "Edit") (rule.behavior === "allow" ? lists.allowWrite : lists.denyWrite).push(path)
    else if (rule.behavior === "deny") lists.denyRead.push(path)
  }
  return {
    enabled: options.flag === true || tighten.enabled || enabled === true,
    // weft refuses to run commands when the sandbox asked for cannot start, unless a user says otherwise.
    failIfUnavailable: tighten.failIfUnavailable || failIfUnavailable !== false,
    autoAllowBashIfSandboxed: !tighten.autoAllowOff && autoAllow === true,
    allowUnsandboxedCommands: !tighten.allowUnsandboxedOff && allowUnsandboxed !== false,
    excludedCommands: unique(lists.excludedCommands),
    hooks: tighten.hooks || hooks === true,
    network: {
      allowedDomains: unique(lists.allowedDomains),
      deniedDomains: unique(lists.deniedDomains),
      strictAllowlist: tighten.strict || strict === true,
      allowUnixSockets: unique(lists.allowUnixSockets),
      allowAllUnixSockets: allowAllUnix === true
    },
    filesystem: {
      allowWrite: unique(lists.allowWrite),
      denyWrite: unique(lists.denyWrite),
      denyRead: unique(lists.denyRead),
      allowRead: unique(lists.allowRead)
    },
    warnings
  }
}
