/**
 * MCP servers from Claude Code's configuration files, so servers a user already set up just work:
 *
 *   - dynamic: `--mcp-config <file|json>` (repeatable; with `--strict-mcp-config`, the only servers)
 *   - local:   `projects["<project dir>"].mcpServers` in `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set)
 *              and in weft's `$WEFT_HOME/mcp.json`
 *   - project: `.mcp.json` at the project root, only in a trusted project and only the servers approved by
 *              `enableAllProjectMcpServers` / `enabledMcpjsonServers` and not named in `disabledMcpjsonServers`
 *   - user:    `mcpServers` in `~/.claude.json` and in `$WEFT_HOME/mcp.json`
 *
 * A name defined in several scopes is taken from the first in that order. The approvals are read from the session's
 * merged settings (`projectTrustOf`), whose loader drops a repository's own approvals while the project is
 * untrusted (a repository cannot approve its own servers; Claude Code lets it) and adds the ones the user made in
 * Claude Code. `${VAR}` and `${VAR:-default}` are expanded in command, args, env,
 * url and headers; a variable with neither a value nor a default makes that server a configuration error (it is
 * reported and never started).
 *
 * Schema-free: it runs on every start, and most starts have no servers at all.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { readSmallText } from "../platform/FileProbe.js"
import * as Variables from "../platform/Variables.js"
import { join, resolve } from "node:path"
import { isRecord } from "../domain/Json.js"
import * as ClaudeJson from "../context/ClaudeJson.js"
import type { Interface as SettingsInterface } from "../context/Settings.js"
import { realPathOf } from "../context/Trust.js"

export type Scope = "dynamic" | "local" | "project" | "user"

export interface StdioServer {
  readonly type: "stdio"
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  readonly cwd?: string | undefined
}

export interface HttpServer {
  readonly type: "http" | "sse"
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * A server living in the host process (the Agent SDK's `createSdkMcpServer`, a library user's own): `send` carries
 * one JSON-RPC message to it and answers its response (nothing for a notification). Only a host gives one; no
 * configuration file can name it.
 */
export interface HostServer {
  readonly type: "sdk"
  readonly send: (message: unknown) => Effect.Effect<unknown, { readonly message: string }>
}

export type ServerConfig = StdioServer | HttpServer | HostServer

/** A configured server: where it came from, and its configuration with variables expanded (or why it cannot start). */
export interface Server {
  readonly name: string
  readonly scope: Scope
  /** The file it was read from, or `--mcp-config` for inline JSON. */
  readonly origin: string
  readonly config: ServerConfig | McpConfigError
}

/** A configuration that cannot be used: not JSON, a server of the wrong shape, a variable without a value. */
export class McpConfigError extends Data.TaggedError("McpConfigError")<{ readonly origin: string; readonly message: string }> {}

/** Project server approvals, from the merged settings. */
export interface Approvals {
  readonly enableAllProjectMcpServers?: boolean | undefined
  readonly enabledMcpjsonServers?: ReadonlyArray<string> | undefined
  readonly disabledMcpjsonServers?: ReadonlyArray<string> | undefined
}

export interface ProjectTrust {
  readonly trusted: boolean
  readonly approvals: Approvals
}

export interface LoadOptions {
  /** The project directory (the session's cwd). */
  readonly cwd: string
  /** Home for `~/.claude.json`; default `$HOME`, else the OS's. */
  readonly home?: string | undefined
  /** weft's home, for `mcp.json`; default `$WEFT_HOME`, else `<home>/.weft`. */
  readonly weftHome?: string | undefined
  /**
   * Whether the project is trusted (an untrusted project's `.mcp.json` is never read) and the approvals of the
   * merged settings: run only when the project has a `.mcp.json`, so a run without one loads no settings for it.
   */
  readonly project: Effect.Effect<ProjectTrust>
  /** `--mcp-config` values: each a file path (relative to cwd) or a JSON object. */
  readonly mcpConfigs?: ReadonlyArray<string> | undefined
  /** `--strict-mcp-config`: only the servers of `--mcp-config`. */
  readonly strict?: boolean | undefined
  /**
   * The variables `${VAR}` expands from; default `process.env` with the variables laid over weft's environment
   * (`Variables.overlay`: the settings' `env`, which Claude Code applies to its own process) winning over it.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
}

export interface Loaded {
  /** The servers to connect, in precedence order of their scopes, each name once. */
  readonly servers: ReadonlyArray<Server>
  /** Project servers not started, and why (untrusted project, not approved): for `weft mcp list`. */
  readonly skipped: ReadonlyArray<{ readonly name: string; readonly reason: string }>
  /** Files that could not be read as configuration (for stderr). */
  readonly warnings: ReadonlyArray<string>
}

/** weft's own file of user and local servers. */
export const weftFile = (weftHome: string) => join(weftHome, "mcp.json")

const stringRecord = (value: unknown): Record<string, string> | undefined => {
  if (value === undefined) return {}
  if (!isRecord(value)) return undefined
  const out: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string") return undefined
    out[key] = item
  }
  return out
}

const variable = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/** `${VAR}` and `${VAR:-default}` in `text`; the first variable with no value and no default is returned instead. */
export const expand = (
  text: string,
  env: Readonly<Record<string, string | undefined>>
): { readonly value: string } | { readonly missing: string } => {
  let missing: string | undefined
  const value = text.replace(variable, (whole, name: string, fallback: string | undefined) => {
    const found = env[name]
    if (found !== undefined && found !== "") return found
    if (fallback !== undefined) return fallback
    missing ??= name
    return whole
  })
  return missing === undefined ? { value } : { missing }
}

/** One server entry of a file, validated and expanded. */
export const parseServer = (
  name: string,
  raw: unknown,
  origin: string,
  env: Readonly<Record<string, string | undefined>>
): ServerConfig | McpConfigError => {
  const error = (message: string) => new McpConfigError({ origin, message: `MCP server "${name}" in ${origin}: ${message}` })
  if (!isRecord(raw)) return error("expected an object")
  const type = raw["type"] ?? (raw["url"] !== undefined && raw["command"] === undefined ? "http" : "stdio")
  let missing: string | undefined
  const x = (text: string) => {
    const result = expand(text, env)
    if ("missing" in result) {
      missing ??= result.missing
      return text
    }
    return result.value
  }
  const xRecord = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, x(v)]))
  let config: ServerConfig
  if (type === "stdio") {
    const command = raw["command"]
    if (typeof command !== "string" || command === "") return error('a stdio server needs "command" (a string)')
    const args = raw["args"] ?? []
    if (!Array.isArray(args) || !args.every((arg): arg is string => typeof arg === "string")) {
      return error('"args" must be an array of strings')
    }
    const serverEnv = stringRecord(raw["env"])
    if (serverEnv === undefined) return error('"env" must be an object of strings')
    const cwd = raw["cwd"]
    if (cwd !== undefined && typeof cwd !== "string") return error('"cwd" must be a string')
    config = { type: "stdio", command: x(command), args: args.map(x), env: xRecord(serverEnv), cwd }
  } else if (type === "http" || type === "sse" || type === "streamable-http") {
    const url = raw["url"]
    if (typeof url !== "string" || url === "") return error(`an ${type} server needs "url" (a string)`)
    const headers = stringRecord(raw["headers"])
    if (headers === undefined) return error('"headers" must be an object of strings')
    config = { type: type === "sse" ? "sse" : "http", url: x(url), headers: xRecord(headers) }
  } else {
    return error(`unknown type ${JSON.stringify(type)} (expected stdio, http or sse)`)
  }
  if (missing !== undefined) {
    return error(`the environment variable ${missing} is not set and has no default (write \${${missing}:-default})`)
  }
  return config
}

/** The `mcpServers` object of a parsed file, as servers. */
export const serversOf = (
  mcpServers: unknown,
  scope: Scope,
  origin: string,
  env: Readonly<Record<string, string | undefined>>
): Array<Server> | McpConfigError => {
  if (mcpServers === undefined) return []
  if (!isRecord(mcpServers)) return new McpConfigError({ origin, message: `${origin}: "mcpServers" must be an object` })
  return Object.entries(mcpServers).map(([name, raw]) => ({ name, scope, origin, config: parseServer(name, raw, origin, env) }))
}

const readText = (path: string): Effect.Effect<string | undefined, McpConfigError> =>
  Effect.flatMap(readSmallText(path), (read) => {
    if ("text" in read) return Effect.succeed(read.text)
    if (read.error.code === "ENOENT" || read.error.code === "ENOTDIR") return Effect.succeed(undefined)
    return Effect.fail(new McpConfigError({ origin: path, message: `could not read ${path}: ${read.error.message}` }))
  })

const parseJson = (text: string, origin: string): Record<string, unknown> | McpConfigError => {
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : new McpConfigError({ origin, message: `${origin}: expected a JSON object` })
  } catch (error) {
    return new McpConfigError({
      origin,
      message: `${origin} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`
    })
  }
}

/**
 * A JSON file as an object; absent is undefined. Every reader of MCP configuration files uses it (McpConfigFile too),
 * so each names the file and what is wrong with it alike.
 */
export const readJsonFile = (path: string): Effect.Effect<Record<string, unknown> | undefined, McpConfigError> =>
  Effect.flatMap(readText(path), (text) => {
    if (text === undefined) return Effect.succeed(undefined)
    const parsed = parseJson(text, path)
    return parsed instanceof McpConfigError ? Effect.fail(parsed) : Effect.succeed(parsed)
  })

/**
 * One `--mcp-config` value: inline JSON (it starts with `{`) or a file. Its servers are dynamic. Anything wrong with
 * it fails the run (it was asked for on the command line), as in Claude Code.
 */
export const loadFlag = (value: string, cwd: string, env: Readonly<Record<string, string | undefined>> = process.env) =>
  Effect.gen(function* () {
    const inline = value.trimStart().startsWith("{")
    const origin = inline ? "--mcp-config" : resolve(cwd, value)
    const text = inline ? value : yield* readText(origin)
    if (text === undefined) return yield* new McpConfigError({ origin, message: `MCP configuration file not found: ${origin}` })
    const parsed = parseJson(text, inline ? "the --mcp-config JSON" : `the MCP configuration ${origin}`)
    if (parsed instanceof McpConfigError) return yield* parsed
    if (!("mcpServers" in parsed)) {
      return yield* new McpConfigError({ origin, message: `the MCP configuration ${origin} has no "mcpServers" object` })
    }
    const servers = serversOf(parsed["mcpServers"], "dynamic", origin, env)
    if (servers instanceof McpConfigError) return yield* servers
    return servers
  })

/**
 * The project's trust and the approvals of the session's merged settings (Settings drops an untrusted project's own
 * approvals, so a repository cannot approve its own servers, and adds those the user made in Claude Code): the one
 * source of what starts, so `--settings`, `--setting-sources` and `--trust-project` decide it as they decide the
 * rest of the session.
 */
export const projectTrustOf = (settings: SettingsInterface): ProjectTrust => ({
  trusted: settings.trusted,
  approvals: {
    enableAllProjectMcpServers: settings.value.enableAllProjectMcpServers,
    enabledMcpjsonServers: settings.value.enabledMcpjsonServers,
    disabledMcpjsonServers: settings.value.disabledMcpjsonServers
  }
})

/**
 * `projectTrustOf` the settings loaded for `cwd` with no flags (`weft mcp list`). Loaded only when asked: McpConfig
 * asks only when the project has a `.mcp.json`.
 */
export const projectTrustFromSettings = (cwd: string): Effect.Effect<ProjectTrust> =>
  Effect.flatMap(
    Effect.promise(() => import("../context/Settings.js")),
    ({ Settings }) => Effect.map(Settings.make({ cwd }), projectTrustOf)
  )

/** Is a project server approved (settings merged; an untrusted project's own approvals are already dropped). */
export const approved = (name: string, approvals: Approvals): boolean =>
  !(approvals.disabledMcpjsonServers ?? []).includes(name) &&
  (approvals.enableAllProjectMcpServers === true || (approvals.enabledMcpjsonServers ?? []).includes(name))

/** Claude Code's `~/.claude.json` as `readJsonFile` answers (read through ClaudeJson, which keeps it for the run). */
const claudeFile = (path: string) =>
  Effect.map(ClaudeJson.read(path), (read) =>
    read._tag === "Unusable"
      ? Result.fail(new McpConfigError({ origin: path, message: read.message }))
      : Result.succeed(read._tag === "Object" ? read.value : undefined)
  )

/** Every scope's servers (see the module's comment). Fails only for a bad `--mcp-config`. */
export const load = (options: LoadOptions): Effect.Effect<Loaded, McpConfigError> =>
  Effect.gen(function* () {
    const env = options.env ?? { ...process.env, ...(yield* Variables.overlay) }
    const cwd = resolve(options.cwd)
    const dynamic: Array<Server> = []
    for (const value of options.mcpConfigs ?? []) dynamic.push(...(yield* loadFlag(value, cwd, env)))
    if (options.strict === true) return { servers: unique(dynamic), skipped: [], warnings: [] }

    const home = options.home ?? (yield* Variables.home)
    const weftHome = options.weftHome ?? (yield* Variables.weftHomeOf(home))
    const warnings: Array<string> = []
    const skipped: Array<{ name: string; reason: string }> = []
    const local: Array<Server> = []
    const user: Array<Server> = []
    const project: Array<Server> = []

    // Claude Code's file first, then weft's own: the first definition of a name wins.
    const claudeJson = yield* ClaudeJson.pathOf(home)
    for (const path of [claudeJson, weftFile(weftHome)]) {
      const file = path === claudeJson ? yield* claudeFile(path) : yield* Effect.result(readJsonFile(path))
      if (file._tag === "Failure") {
        warnings.push(`${file.failure.message} (its MCP servers are ignored)`)
        continue
      }
      if (file.success === undefined) continue
      // Claude Code keys a project by its real path; weft's file by the path as given.
      const entry = ClaudeJson.projectEntry(file.success, cwd) ?? ClaudeJson.projectEntry(file.success, yield* realPathOf(cwd))
      const collect = (into: Array<Server>, value: unknown, scope: Scope) => {
        const servers = serversOf(value, scope, path, env)
        if (servers instanceof McpConfigError) warnings.push(servers.message)
        else into.push(...servers)
      }
      if (entry !== undefined) collect(local, entry["mcpServers"], "local")
      collect(user, file.success["mcpServers"], "user")
    }

    const mcpJson = join(cwd, ".mcp.json")
    const projectText = yield* Effect.result(readText(mcpJson))
    if (projectText._tag === "Failure") {
      warnings.push(`${projectText.failure.message} (its MCP servers are ignored)`)
    } else if (projectText.success !== undefined) {
      const trust = yield* options.project
      if (!trust.trusted) {
        // Not parsed: nothing of an untrusted repository's configuration is looked at beyond its presence.
        skipped.push({ name: ".mcp.json", reason: "the project is not trusted (weft trust)" })
      } else {
        const parsed = parseJson(projectText.success, mcpJson)
        const servers = parsed instanceof McpConfigError ? parsed : serversOf(parsed["mcpServers"], "project", mcpJson, env)
        if (servers instanceof McpConfigError) warnings.push(`${servers.message} (its MCP servers are ignored)`)
        else {
          for (const server of servers) {
            if (approved(server.name, trust.approvals)) project.push(server)
            else skipped.push({ name: server.name, reason: "not approved (enabledMcpjsonServers or enableAllProjectMcpServers)" })
          }
        }
      }
    }
    return { servers: unique([...dynamic, ...local, ...project, ...user]), skipped, warnings }
  })

/** The first server of each name. */
const unique = (servers: ReadonlyArray<Server>): Array<Server> => {
  const seen = new Set<string>()
  return servers.filter((server) => (seen.has(server.name) ? false : (seen.add(server.name), true)))
}
