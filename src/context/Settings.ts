/**
 * Settings from every scope, merged as Claude Code merges them, so a project's existing `.claude/` files just work.
 *
 * Scopes, highest precedence first:
 *   - managed: `/etc/weft/managed-settings.json` and Claude Code's `/etc/claude-code/managed-settings.json`
 *   - flag: `--settings <file|json>`
 *   - local: `<project>/.claude/settings.local.json`
 *   - project: `<project>/.claude/settings.json`
 *   - user: `~/.claude/settings.json`
 * `--setting-sources user,project,local` picks which of the last three load. Objects are merged key by key, arrays
 * concatenated (duplicates dropped), scalars taken from the highest scope that sets them.
 *
 * Each file is decoded with Schema (unknown keys kept, for the subsystems that read them), key by key: a key whose
 * value has the wrong type is ignored with a warning naming the file and the key, and the file's other keys apply.
 * What narrows never gets lost to a typo: a deny or ask list (and `disabledMcpjsonServers`) keeps its valid entries
 * (a lone string is one entry), and a `disableBypassPermissionsMode` of any other value still disables. A file that
 * is there but cannot be read as settings (not JSON, not an object, unreadable) is an error (`errors`), not a
 * warning: the deny rules it may hold are unknown, so the session does not start without them (`weft -p` exits 1
 * naming it). Keys weft does not implement are listed in `unknownKeys` (see `knownKeys`).
 *
 * Project trust: a repository's own settings must not run code, redirect traffic or widen permissions before the
 * user trusts it. For an untrusted project the loader drops those keys from the project and local files (see
 * `untrustedKeys`) and says so once in `warnings`; what is merged is what applies. Deny and ask rules always apply.
 * Trust is recorded by `weft trust [dir]` or by accepting Claude Code's trust dialog (src/context/Trust.ts), or given
 * for one run (`--trust-project`, `WEFT_TRUST_PROJECT=1`). The `.mcp.json` approvals the user made in Claude Code
 * (its `~/.claude.json` entry for the project) join as the lowest source, so MCP reads every approval here.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import { homedir } from "node:os"
import { isAbsolute, join, resolve } from "node:path"
import { probe, readSmallText } from "../platform/FileProbe.js"
import * as Variables from "../platform/Variables.js"
import { claudeCodeRecord, isTrusted } from "./Trust.js"

export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk"
export const permissionModes: ReadonlyArray<PermissionMode> = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]

export type Scope = "managed" | "flag" | "local" | "project" | "user"
/** The scopes `--setting-sources` chooses among. */
export type FileScope = "user" | "project" | "local"
export const fileScopes: ReadonlyArray<FileScope> = ["user", "project", "local"]

// Built on the first file read: a run with no settings files (most runs of a bare `weft -p`) builds no schema.
const makeSchemas = () => {
  const unknownKeys = Schema.Record(Schema.String, Schema.Unknown)
  const Strings = Schema.Array(Schema.String)
  const PermissionsSettings = Schema.StructWithRest(
    Schema.Struct({
      allow: Schema.optional(Strings),
      deny: Schema.optional(Strings),
      ask: Schema.optional(Strings),
      defaultMode: Schema.optional(Schema.Literals(["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"])),
      additionalDirectories: Schema.optional(Strings),
      disableBypassPermissionsMode: Schema.optional(Schema.Literal("disable"))
    }),
    [unknownKeys]
  )
  // The command sandbox (src/sandbox/SandboxConfig.ts reads it scope by scope: a project may tighten it only).
  const SandboxSettings = Schema.StructWithRest(
    Schema.Struct({
      enabled: Schema.optional(Schema.Boolean),
      failIfUnavailable: Schema.optional(Schema.Boolean),
      autoAllowBashIfSandboxed: Schema.optional(Schema.Boolean),
      allowUnsandboxedCommands: Schema.optional(Schema.Boolean),
      excludedCommands: Schema.optional(Strings),
      // weft's own: hooks' commands run in the sandbox too.
      hooks: Schema.optional(Schema.Boolean),
      network: Schema.optional(
        Schema.StructWithRest(
          Schema.Struct({
            allowedDomains: Schema.optional(Strings),
            deniedDomains: Schema.optional(Strings),
            strictAllowlist: Schema.optional(Schema.Boolean),
            allowUnixSockets: Schema.optional(Strings),
            allowAllUnixSockets: Schema.optional(Schema.Boolean)
          }),
          [unknownKeys]
        )
      ),
      filesystem: Schema.optional(
        Schema.StructWithRest(
          Schema.Struct({
            allowWrite: Schema.optional(Strings),
            denyWrite: Schema.optional(Strings),
            denyRead: Schema.optional(Strings),
            allowRead: Schema.optional(Strings)
          }),
          [unknownKeys]
        )
      )
    }),
    [unknownKeys]
  )
  const SettingsFile = Schema.StructWithRest(
    Schema.Struct({
      permissions: Schema.optional(PermissionsSettings),
      // Decoded entry by entry by the hooks (src/hooks/HookConfig.ts): one bad hook is skipped with a warning naming
      // it, rather than costing the whole file (its permissions with it).
      hooks: Schema.optional(unknownKeys),
      disableAllHooks: Schema.optional(Schema.Boolean),
      env: Schema.optional(Schema.Record(Schema.String, Schema.String)),
      apiKeyHelper: Schema.optional(Schema.String),
      model: Schema.optional(Schema.String),
      mcpServers: Schema.optional(unknownKeys),
      enableAllProjectMcpServers: Schema.optional(Schema.Boolean),
      enabledMcpjsonServers: Schema.optional(Strings),
      disabledMcpjsonServers: Schema.optional(Strings),
      additionalDirectories: Schema.optional(Strings),
      shellEnvironmentPolicy: Schema.optional(unknownKeys),
      sandbox: Schema.optional(SandboxSettings)
    }),
    [unknownKeys]
  )
  // reportInput: a warning shows the value that was refused, not only what was expected.
  return { SettingsFile, decode: Schema.decodeUnknownResult(SettingsFile, { errors: "all", reportInput: true }) }
}

let schemas: ReturnType<typeof makeSchemas> | undefined
const getSchemas = () => (schemas ??= makeSchemas())

/** One settings file as decoded: the keys weft knows, typed; every other key kept as it was. */
export type SettingsValue = ReturnType<typeof makeSchemas>["SettingsFile"]["Type"]
export type PermissionsSettings = NonNullable<SettingsValue["permissions"]>
export type SandboxSettings = NonNullable<SettingsValue["sandbox"]>

/**
 * Decodes a value as a settings file's content is decoded, key by key (for library users who build one by hand):
 * `warnings` names the keys left out. Anything but an object is an error.
 */
export const decodeSettings = (
  value: unknown
): { readonly value: SettingsValue; readonly warnings: ReadonlyArray<string> } | { readonly error: string } => {
  if (!isPlainObject(value)) return { error: "expected an object" }
  const result = getSchemas().decode(value)
  return Result.isSuccess(result) ? { value: result.success, warnings: [] } : decodeByKey(value, "(value)")
}

/**
 * Keys of project-scoped files that run code, redirect traffic or widen permissions: they apply only in a trusted
 * project. Dotted names are keys inside an object (`permissions.allow`).
 */
export const untrustedKeys: ReadonlyArray<string> = [
  "hooks",
  // Turns off every command hook, the user's and managed guards included: a repository must not disarm them.
  "disableAllHooks",
  "env",
  "apiKeyHelper",
  "mcpServers",
  "enableAllProjectMcpServers",
  "enabledMcpjsonServers",
  "additionalDirectories",
  "shellEnvironmentPolicy",
  "statusLine",
  "awsAuthRefresh",
  "awsCredentialExport",
  "otelHeadersHelper",
  "enabledPlugins",
  "extraKnownMarketplaces",
  "permissions.allow",
  "permissions.defaultMode",
  "permissions.additionalDirectories"
]

/**
 * The top-level keys weft reads (`sandbox` by the sandbox; `$schema` is an editor's). Any other key is kept but does
 * nothing: `unknownKeys` names it (`weft -p --verbose` says so once). `mcpServers` is decoded (and an untrusted
 * project's dropped) but MCP servers come from `.mcp.json`, `~/.claude.json` and `--mcp-config` (McpConfig), so it is
 * named too.
 */
export const knownKeys: ReadonlyArray<string> = [
  "$schema",
  "permissions",
  "hooks",
  "disableAllHooks",
  "env",
  "apiKeyHelper",
  "model",
  "enableAllProjectMcpServers",
  "enabledMcpjsonServers",
  "disabledMcpjsonServers",
  "additionalDirectories",
  "shellEnvironmentPolicy",
  "sandbox"
]

/** The keys of `permissions` weft reads. */
export const knownPermissionKeys: ReadonlyArray<string> = [
  "allow",
  "deny",
  "ask",
  "defaultMode",
  "additionalDirectories",
  "disableBypassPermissionsMode"
]

/** Where one scope's settings came from. */
export interface Source {
  readonly scope: Scope
  /** The file read (absolute), or `--settings` for JSON given inline. */
  readonly origin: string
  /** The directory that `/path` and `./path` rules of this source are relative to: the project they apply to. */
  readonly root: string
  /** What this source contributes, after an untrusted project's keys were dropped. */
  readonly settings: SettingsValue
}

/** Keys dropped from an untrusted project's file. */
export interface Ignored {
  readonly origin: string
  readonly keys: ReadonlyArray<string>
}

export interface Interface {
  /** Every source merged: what applies. */
  readonly value: SettingsValue
  /** The sources that loaded, highest precedence first. */
  readonly sources: ReadonlyArray<Source>
  /** The project directory (the session's cwd). */
  readonly projectDir: string
  readonly home: string
  /** Whether the project's own settings (and `.mcp.json`) may run code, redirect traffic or widen permissions. */
  readonly trusted: boolean
  /** What an untrusted project asked for and did not get (also told once in `warnings`). */
  readonly ignored: ReadonlyArray<Ignored>
  /** For stderr: keys ignored and why, and what an untrusted project's settings lost. */
  readonly warnings: ReadonlyArray<string>
  /**
   * Files that are there but could not be read as settings (not JSON, not an object, unreadable), or a `--settings`
   * that names no file: their rules are unknown, so a session must not start (SessionServices fails, `weft -p`
   * exits 1).
   */
  readonly errors: ReadonlyArray<SettingsError>
  /** Keys of the loaded settings that weft does not implement (dotted inside `permissions`), each once, with its files. */
  readonly unknownKeys: ReadonlyArray<UnknownKey>
}

export interface UnknownKey {
  readonly key: string
  readonly origins: ReadonlyArray<string>
}

/** A settings file that could not be read as settings; `origin` is the file, or `--settings`. */
export class SettingsError extends Data.TaggedError("SettingsError")<{
  readonly origin: string
  /** Whether it came from the `--settings` flag. */
  readonly flag: boolean
  readonly message: string
}> {}

export interface LoadOptions {
  /** The project directory (the session's cwd). */
  readonly cwd: string
  /** Home for `~/.claude/settings.json`; default `$HOME`, else the OS's. */
  readonly home?: string
  /** weft's home, where trust is recorded; default `$WEFT_HOME`, else `<home>/.weft`. */
  readonly weftHome?: string
  /** `--settings`: a file path (relative to cwd) or a JSON object. */
  readonly flagSettings?: string
  /** `--setting-sources`: which file scopes load (default all three). */
  readonly settingSources?: ReadonlyArray<FileScope>
  /** `--trust-project` (or `WEFT_TRUST_PROJECT=1`): trust the project for this run. */
  readonly trustProject?: boolean
  /** Managed settings files, highest first; default the two under /etc. */
  readonly managedPaths?: ReadonlyArray<string>
}

export const defaultManagedPaths: ReadonlyArray<string> = [
  "/etc/weft/managed-settings.json",
  "/etc/claude-code/managed-settings.json"
]

export class Settings extends Context.Service<Settings, Interface>()("weft/Settings") {
  /** Loads every scope (see the module's comment). Never fails: problems become `warnings` and `errors`. */
  static make = (options: LoadOptions): Effect.Effect<Interface> => load(options)

  /** `make` as a layer, failing on a file that could not be read as settings (`errors`): a session's settings. */
  static layer = (options: LoadOptions): Layer.Layer<Settings, SettingsError> =>
    Layer.effect(Settings, Effect.flatMap(load(options), requireReadable))

  /** Settings given as a value (library users, tests): one `flag` source, trusted unless said otherwise. */
  static fromValue = (
    value: SettingsValue,
    options: { readonly projectDir?: string; readonly home?: string; readonly trusted?: boolean } = {}
  ): Interface => {
    const projectDir = resolve(options.projectDir ?? process.cwd())
    const source: Source = { scope: "flag", origin: "--settings", root: projectDir, settings: value }
    return {
      value,
      sources: [source],
      projectDir,
      home: options.home ?? homedir(),
      trusted: options.trusted ?? true,
      ignored: [],
      warnings: [],
      errors: [],
      unknownKeys: unknownKeysOf([source])
    }
  }

  /** `fromValue` as a layer. */
  static layerFromValue = (
    value: SettingsValue,
    options: { readonly projectDir?: string; readonly home?: string; readonly trusted?: boolean } = {}
  ): Layer.Layer<Settings> => Layer.succeed(Settings, Settings.fromValue(value, options))

  /** No settings at all. */
  static empty = (projectDir?: string): Interface => Settings.fromValue({}, projectDir === undefined ? {} : { projectDir })
}

/** Merges settings, the highest precedence first: objects key by key, arrays concatenated without duplicates. */
export const merge = (highestFirst: ReadonlyArray<SettingsValue>): SettingsValue => {
  if (highestFirst.length === 0) return {}
  if (highestFirst.length === 1 && highestFirst[0] !== undefined) return highestFirst[0]
  let merged: Record<string, unknown> = {}
  for (let index = highestFirst.length - 1; index >= 0; index--) {
    const next = highestFirst[index]
    if (next !== undefined) merged = mergeObjects(merged, next)
  }
  // Merging values of one type keeps that type; decoding the result proves it without a cast. Were it ever not to,
  // key by key keeps every source's deny rules rather than falling back to one source.
  const decoded = getSchemas().decode(merged)
  return Result.isSuccess(decoded) ? decoded.success : decodeByKey(merged, "(merged)").value
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `higher` over `lower`. */
const mergeObjects = (lower: Readonly<Record<string, unknown>>, higher: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...lower }
  for (const [key, value] of Object.entries(higher)) {
    const below = out[key]
    if (Array.isArray(below) && Array.isArray(value)) {
      const seen = new Set<string>()
      out[key] = [...below, ...value].filter((item) => {
        const identity = JSON.stringify(item) ?? String(item)
        if (seen.has(identity)) return false
        seen.add(identity)
        return true
      })
    } else if (isPlainObject(below) && isPlainObject(value)) {
      out[key] = mergeObjects(below, value)
    } else {
      out[key] = value
    }
  }
  return out
}

/** `settings` without the keys an untrusted project may not set, and the names of those it had. */
export const dropUntrusted = (settings: SettingsValue): { readonly kept: SettingsValue; readonly dropped: ReadonlyArray<string> } => {
  const dropped: Array<string> = []
  const kept: Record<string, unknown> = { ...settings }
  for (const key of untrustedKeys) {
    const dot = key.indexOf(".")
    if (dot === -1) {
      if (key in kept) {
        delete kept[key]
        dropped.push(key)
      }
      continue
    }
    const outer = key.slice(0, dot)
    const inner = key.slice(dot + 1)
    const section = kept[outer]
    if (isPlainObject(section) && inner in section) {
      const { [inner]: _removed, ...rest } = section
      kept[outer] = rest
      dropped.push(key)
    }
  }
  // Every key of a decoded value stays what it was, so the result is still a SettingsValue; decoding again proves
  // it without a cast (a few keys, once per file).
  const again = getSchemas().decode(kept)
  return { kept: Result.isSuccess(again) ? again.success : decodeByKey(kept, "(untrusted project)").value, dropped }
}

let formatter: ReturnType<typeof SchemaIssue.makeFormatterStandardSchemaV1> | undefined

const formatIssues = (error: Schema.SchemaError): string =>
  (formatter ??= SchemaIssue.makeFormatterStandardSchemaV1())(error.issue)
    .issues.map((issue) => {
      const path = (issue.path ?? []).reduce<string>((text, segment) => {
        const part = typeof segment === "object" ? segment.key : segment
        return typeof part === "number" ? `${text}[${part}]` : text === "" ? String(part) : `${text}.${String(part)}`
      }, "")
      return path === "" ? issue.message : `${path}: ${issue.message}`
    })
    .join("; ")

type Parsed =
  | { readonly _tag: "Absent" }
  /** There, but not settings: `reason` says why. */
  | { readonly _tag: "Invalid"; readonly reason: string }
  | { readonly _tag: "Valid"; readonly value: SettingsValue; readonly warnings: ReadonlyArray<string> }

/** Lists that only narrow what runs: an entry of the wrong type costs that entry, not the list. */
const narrowingLists: ReadonlySet<string> = new Set(["permissions.deny", "permissions.ask", "disabledMcpjsonServers"])

/** The string entries of a list (a lone string is a list of one); undefined for anything else. */
const stringEntries = (value: unknown): Array<string> | undefined =>
  typeof value === "string"
    ? [value]
    : Array.isArray(value)
      ? value.filter((entry): entry is string => typeof entry === "string")
      : undefined

/**
 * A file's keys decoded one at a time, for a file that does not decode whole: each key as a file of that key alone
 * (the one schema, no schema per key), `permissions` one inner key at a time. What does not decode is ignored with
 * a warning, but what narrows keeps what it can (see the module's comment).
 */
const decodeByKey = (
  json: Readonly<Record<string, unknown>>,
  origin: string
): { value: SettingsValue; warnings: Array<string>; invalid?: string } => {
  const { decode } = getSchemas()
  const warnings: Array<string> = []
  // A `sandbox` that does not decode is not ignored: what it asks of the command sandbox is unknown, and running
  // without it could widen what a command reaches. The file is then one that cannot be read as settings.
  let invalid: string | undefined
  /** The value to keep for a key that did not decode, if any. */
  const salvage = (name: string, value: unknown, issues: string): unknown => {
    const entries = narrowingLists.has(name) ? stringEntries(value) : undefined
    if (entries !== undefined) {
      warnings.push(`weft: settings ${origin}: ${issues}; the other entries of ${name} apply`)
      return entries
    }
    if (name === "permissions.disableBypassPermissionsMode" && value !== false && value !== null) {
      warnings.push(`weft: settings ${origin}: ${issues}; bypassPermissions mode is disabled all the same`)
      return "disable"
    }
    warnings.push(`weft: settings ${origin}: ignoring ${name}: ${issues}`)
    return undefined
  }
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(json)) {
    if (key === "permissions" && isPlainObject(value)) {
      const permissions: Record<string, unknown> = {}
      for (const [inner, innerValue] of Object.entries(value)) {
        const one = decode({ permissions: { [inner]: innerValue } })
        const saved = Result.isSuccess(one) ? innerValue : salvage(`permissions.${inner}`, innerValue, formatIssues(one.failure))
        if (saved !== undefined) permissions[inner] = saved
      }
      kept[key] = permissions
      continue
    }
    const one = decode({ [key]: value })
    if (key === "sandbox" && !Result.isSuccess(one)) {
      invalid = `${formatIssues(one.failure)} (what it asks of the command sandbox is unknown)`
      continue
    }
    const saved = Result.isSuccess(one) ? value : salvage(key, value, formatIssues(one.failure))
    if (saved !== undefined) kept[key] = saved
  }
  // Every key kept decoded on its own (or is a salvaged list of strings), so the whole decodes: this proves the type.
  const decoded = decode(kept)
  return { value: Result.isSuccess(decoded) ? decoded.success : {}, warnings, ...(invalid === undefined ? {} : { invalid }) }
}

/** Decodes the text of a settings file; `origin` names it in a warning. */
export const parseSettingsText = (text: string, origin: string): Parsed => {
  if (text.trim() === "") return { _tag: "Valid", value: {}, warnings: [] }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return { _tag: "Invalid", reason: `not valid JSON (${reason})` }
  }
  if (!isPlainObject(json)) return { _tag: "Invalid", reason: "expected a JSON object at the top level" }
  // The whole file at once first: one decode for the common case of a valid file.
  const decoded = getSchemas().decode(json)
  if (Result.isSuccess(decoded)) return { _tag: "Valid", value: decoded.success, warnings: [] }
  const byKey = decodeByKey(json, origin)
  return byKey.invalid === undefined ? { _tag: "Valid", value: byKey.value, warnings: byKey.warnings } : { _tag: "Invalid", reason: byKey.invalid }
}

const readSettingsFile = (path: string): Effect.Effect<Parsed> =>
  Effect.map(readSmallText(path), (read): Parsed => {
    if ("text" in read) return parseSettingsText(read.text, path)
    if (read.error.code === "ENOENT" || read.error.code === "ENOTDIR") return { _tag: "Absent" }
    return { _tag: "Invalid", reason: `cannot be read (${read.error.message})` }
  })

let knownKeySets: { readonly top: ReadonlySet<string>; readonly permissions: ReadonlySet<string> } | undefined

/** The keys of `sources` that weft does not implement, each once with the files that set it. */
export const unknownKeysOf = (sources: ReadonlyArray<Source>): ReadonlyArray<UnknownKey> => {
  const known = (knownKeySets ??= { top: new Set(knownKeys), permissions: new Set(knownPermissionKeys) })
  const found = new Map<string, Array<string>>()
  const note = (key: string, origin: string) => {
    const origins = found.get(key)
    if (origins === undefined) found.set(key, [origin])
    else if (!origins.includes(origin)) origins.push(origin)
  }
  for (const source of sources) {
    for (const [key, value] of Object.entries(source.settings)) {
      if (!known.top.has(key)) note(key, source.origin)
      else if (key === "permissions" && isPlainObject(value)) {
        for (const inner of Object.keys(value)) if (!known.permissions.has(inner)) note(`permissions.${inner}`, source.origin)
      }
    }
  }
  return [...found].map(([key, origins]) => ({ key, origins }))
}

/** `WEFT_TRUST_PROJECT=1` (or `true`). */
const trustFromEnvironment: Effect.Effect<boolean> = Effect.map(
  Variables.nonEmpty("WEFT_TRUST_PROJECT"),
  Option.match({ onNone: () => false, onSome: (value) => value === "1" || value.toLowerCase() === "true" })
)

const load = (options: LoadOptions): Effect.Effect<Interface> =>
  Effect.gen(function* () {
    const projectDir = resolve(options.cwd)
    const home = options.home ?? (yield* Variables.home)
    const weftHome = options.weftHome ?? (yield* Variables.weftHomeOf(home))
    const sourcesWanted = new Set<FileScope>(options.settingSources ?? fileScopes)
    const claudeCode = yield* claudeCodeRecord(home, projectDir)
    const trusted =
      options.trustProject === true || (yield* trustFromEnvironment) || (yield* isTrusted(weftHome, projectDir)) || claudeCode.trusted
    const warnings: Array<string> = []
    const errors: Array<SettingsError> = []
    const sources: Array<Source> = []
    const ignored: Array<Ignored> = []

    const add = (scope: Scope, origin: string, root: string, parsed: Parsed) => {
      if (parsed._tag === "Absent") return
      if (parsed._tag === "Invalid") {
        const flag = scope === "flag"
        const what = flag ? (origin === "--settings" ? "--settings" : `--settings ${origin}`) : `settings file ${origin}`
        const message = flag
          ? `${what}: ${parsed.reason}`
          : `${what}: ${parsed.reason}. The rules it may hold (deny rules among them) are unknown, so weft does not ` +
            "start without them: fix the file, or leave its scope out with --setting-sources."
        errors.push(new SettingsError({ origin, flag, message }))
        return
      }
      warnings.push(...parsed.warnings)
      let settings = parsed.value
      if (!trusted && (scope === "project" || scope === "local")) {
        const { kept, dropped } = dropUntrusted(settings)
        settings = kept
        if (dropped.length > 0) ignored.push({ origin, keys: dropped })
      }
      sources.push({ scope, origin, root, settings })
    }

    for (const path of options.managedPaths ?? defaultManagedPaths) {
      add("managed", path, projectDir, yield* readSettingsFile(path))
    }
    if (options.flagSettings !== undefined) {
      const flag = options.flagSettings.trim()
      if (flag.startsWith("{")) add("flag", "--settings", projectDir, parseSettingsText(flag, "--settings"))
      else {
        const path = isAbsolute(flag) ? flag : resolve(projectDir, flag)
        const parsed = yield* readSettingsFile(path)
        if (parsed._tag === "Absent") {
          errors.push(new SettingsError({ origin: path, flag: true, message: `--settings: no such file: ${path}` }))
        } else add("flag", path, projectDir, parsed)
      }
    }
    if (sourcesWanted.has("local")) {
      const path = join(projectDir, ".claude", "settings.local.json")
      add("local", path, projectDir, yield* readSettingsFile(path))
    }
    if (sourcesWanted.has("project")) {
      const path = join(projectDir, ".claude", "settings.json")
      add("project", path, projectDir, yield* readSettingsFile(path))
    }
    if (sourcesWanted.has("user")) {
      const path = join(home, ".claude", "settings.json")
      add("user", path, projectDir, yield* readSettingsFile(path))
    }
    // The user's own choices in Claude Code, whichever sources load: below every settings file.
    if (Object.keys(claudeCode.approvals).length > 0) {
      sources.push({ scope: "user", origin: claudeCode.path, root: projectDir, settings: claudeCode.approvals })
    }

    if (!trusted) {
      const mcpJson = join(projectDir, ".mcp.json")
      if ((yield* probe(mcpJson)) === "File") ignored.push({ origin: mcpJson, keys: ["mcpServers"] })
    }
    if (ignored.length > 0) {
      const listed = ignored.map((entry) => `${entry.origin} (${entry.keys.join(", ")})`).join("; ")
      warnings.push(
        `weft: this project is not trusted, so these of its settings are ignored: ${listed}. ` +
          "Run `weft trust` in it to trust it, or pass --trust-project for one run."
      )
    }

    return {
      value: merge(sources.map((source) => source.settings)),
      sources,
      projectDir,
      home,
      trusted,
      ignored,
      warnings,
      errors,
      unknownKeys: unknownKeysOf(sources)
    }
  })

/** Fails with the first of `settings.errors`: a session does not start on settings it could not read. */
export const requireReadable = (settings: Interface): Effect.Effect<Interface, SettingsError> => {
  const first = settings.errors[0]
  return first === undefined ? Effect.succeed(settings) : Effect.fail(first)
}

// The entry points at the module's top level: `import { Settings } from "weft"` reads `Settings.layer(...)`, and
// `Settings.Settings` is the Tag (`yield* Settings.Settings`).
export const make = Settings.make
export const layer = Settings.layer
export const fromValue = Settings.fromValue
export const layerFromValue = Settings.layerFromValue
export const empty = Settings.empty
