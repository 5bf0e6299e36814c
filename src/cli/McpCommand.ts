/**
 * `weft mcp list | get <name> | add <name> <commandOrUrl> [args...] | add-json <name> <json> | remove <name>`, as
 * Claude Code's `claude mcp`. Where each scope's servers are written: McpConfigFile.ts.
 *
 * `list` and `get` check each server's health as Claude Code does, connecting every server that a session here
 * would run, all at once, each for at most the connect timeout (`MCP_TIMEOUT`); a server a session would not run (an
 * untrusted project's, one not approved, one shadowed by the same name in a scope before it) is shown and never
 * started.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { resolve } from "node:path"
import { McpClient, type ServerStatus } from "../mcp/McpClient.js"
import * as McpConfig from "../mcp/McpConfig.js"
import * as McpConfigFile from "../mcp/McpConfigFile.js"
import * as Variables from "../platform/Variables.js"
import { choice, commands, dashed, decodeOptions, list, type RawValues, text } from "./CliOptions.js"
import { renderCommandHelp } from "./Help.js"
import { type CliError, Outcome, RunError, UsageError } from "./Outcome.js"
import * as Output from "./Output.js"
import { isRecord } from "../domain/Json.js"

const options = {
  scope: choice({
    name: "scope",
    aliases: ["s"],
    placeholder: "scope",
    choices: McpConfigFile.fileScopes,
    description:
      "add, add-json: where the server is written: local (the default: private to you in this project, in $WEFT_HOME/mcp.json), project (.mcp.json, shared through the repository) or user (every project of yours, in $WEFT_HOME/mcp.json). remove: the scope to remove it from, when several have it."
  }),
  transport: choice({
    name: "transport",
    aliases: ["t"],
    placeholder: "transport",
    choices: ["stdio", "http", "sse"],
    default: "stdio",
    description: "add: stdio (the default: a command weft runs), http (Streamable HTTP) or sse (legacy) at a URL."
  }),
  env: list({
    name: "env",
    aliases: ["e"],
    placeholder: "KEY=value",
    accepts: "KEY=value",
    check: (value) => (/^[A-Za-z_][A-Za-z0-9_]*=/.test(value) ? undefined : `must be KEY=value, not ${JSON.stringify(value)}`),
    description: "add: an environment variable of a stdio server."
  }),
  header: list({
    name: "header",
    aliases: ["H"],
    placeholder: "Name: value",
    accepts: '"Name: value"',
    check: (value) => (/^[^:\s]+:/.test(value) ? undefined : `must be "Name: value", not ${JSON.stringify(value)}`),
    description: 'add: a header sent to an http or sse server, "Name: value".'
  })
}

const usage = [
  "weft mcp list",
  "weft mcp get <name>",
  "weft mcp add [options] <name> <commandOrUrl> [args...]",
  "weft mcp add-json [--scope scope] <name> <json>",
  "weft mcp remove [--scope scope] <name>"
]

const summary = () =>
  `${commands.find((command) => command.name === "mcp")?.summary ?? ""} Examples: weft mcp add files -- npx -y @modelcontextprotocol/server-filesystem . ; weft mcp add --transport http -H "Authorization: Bearer $TOKEN" docs https://example.com/mcp ; weft mcp add-json memory '{"command":"npx","args":["-y","@modelcontextprotocol/server-memory"]}'. Options come before the server's name; everything after its command is the command's own arguments.`

const help = () =>
  Output.stdout(renderCommandHelp({ title: "weft mcp", summary: summary(), usage, options: Object.values(options) }))

/** Every name of the options above (`--scope`, `-s`, ...) to its key. */
const optionKeys = new Map(
  Object.entries(options).flatMap(([key, spec]) =>
    [spec.name, ...spec.aliases].map((name) => [dashed(name), key as keyof typeof options] as const)
  )
)

interface Parsed {
  readonly help: boolean
  readonly raw: Record<string, Array<string>>
  readonly positional: ReadonlyArray<string>
}

/**
 * Options and positionals, as Claude Code's parser reads them: options anywhere before `--`, everything after it
 * positional. For `add`, once the name and the command are read, what is not one of the options here is the
 * command's own argument (`weft mcp add files npx -y server` passes `-y` on).
 */
const parse = (args: ReadonlyArray<string>, commandArgsAfter: number): Result.Result<Parsed, string> => {
  const raw: Record<string, Array<string>> = {}
  const positional: Array<string> = []
  let help = false
  let index = 0
  while (index < args.length) {
    const arg = args[index] ?? ""
    index++
    if (arg === "--") {
      positional.push(...args.slice(index))
      break
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg)
      continue
    }
    if (arg === "--help" || arg === "-h") {
      help = true
      continue
    }
    const equals = arg.indexOf("=")
    const flag = arg.startsWith("--") && equals > 0 ? arg.slice(0, equals) : arg
    const key = optionKeys.get(flag)
    if (key === undefined) {
      if (positional.length >= commandArgsAfter) {
        positional.push(arg)
        continue
      }
      return Result.fail(`unknown option ${flag}${commandArgsAfter < Number.POSITIVE_INFINITY ? " (a server command's own options go after --)" : ""}`)
    }
    let value: string | undefined
    if (flag !== arg) value = arg.slice(equals + 1)
    else {
      value = args[index]
      index++
    }
    if (value === undefined) return Result.fail(`${flag} needs a value`)
    ;(raw[key] ??= []).push(value)
  }
  return Result.succeed({ help, raw, positional })
}

const usageError = (message: string) => new UsageError({ message: `mcp: ${message}. See weft mcp --help.` })

const decode = (raw: RawValues) =>
  Effect.fromResult(Result.mapError(decodeOptions(options, raw), (message) => usageError(message.replace(/\.$/, ""))))

/** This directory, the user's home and weft's ($HOME, $WEFT_HOME through Config, as the session reads them). */
const locations: Effect.Effect<McpConfigFile.Locations> = Effect.gen(function* () {
  const home = yield* Variables.home
  return { cwd: resolve(process.cwd()), home, weftHome: yield* Variables.weftHomeOf(home) }
})

const validName = /^[A-Za-z0-9_-]+$/

/** A server's configuration in one line: the command and its arguments, or the URL and transport. */
const describe = (raw: unknown): string => {
  if (!isRecord(raw)) return "(not an object)"
  const url = raw["url"]
  if (typeof url === "string") {
    const type = raw["type"] === "sse" ? "SSE" : "HTTP"
    return `${url} (${type})`
  }
  const command = typeof raw["command"] === "string" ? raw["command"] : "(no command)"
  const args = Array.isArray(raw["args"]) ? raw["args"].map(String) : []
  return [command, ...args].join(" ")
}

const statusText = (status: ServerStatus | undefined, skipped: string | undefined): string => {
  if (skipped !== undefined) return `not started: ${skipped}`
  if (status === undefined) return "not started"
  if (status.status === "connected") return "✓ Connected"
  if (status.status === "pending") return "✗ Failed to connect: still connecting at the connect timeout (MCP_TIMEOUT)"
  const error = (status.error ?? "").split("\n")[0] ?? ""
  return `✗ Failed to connect${error === "" ? "" : `: ${error}`}`
}

interface Listed {
  readonly entry: McpConfigFile.Entry
  /** Why a session here would not run it; undefined when it would. */
  readonly skipped: string | undefined
  readonly status: ServerStatus | undefined
}

/**
 * Every server of every file, each with what a session here would make of it. Only the servers McpConfig.load gives
 * a session (the project's only when trusted and approved) are connected, and only those `check` keeps.
 */
const survey = (where: McpConfigFile.Locations, check: (name: string) => boolean) =>
  Effect.gen(function* () {
    const { entries, warnings } = yield* McpConfigFile.entries(where)
    const loaded = yield* McpConfig.load({
      cwd: where.cwd,
      home: where.home,
      weftHome: where.weftHome,
      project: McpConfig.projectTrustFromSettings(where.cwd)
    }).pipe(Effect.orDie)
    const running = loaded.servers.filter((server) => check(server.name))
    const statuses =
      running.length === 0
        ? []
        : yield* Effect.scoped(
            // What the client library prints goes to stderr: stdout is the listing.
            Effect.acquireRelease(Effect.sync(() => Output.consoleToStderr()), (restore) => Effect.sync(restore)).pipe(
              Effect.andThen(McpClient.make({ servers: running, cwd: where.cwd })),
              Effect.flatMap((mcp) => mcp.servers)
            )
          )
    const projectSkip = loaded.skipped.find((skip) => skip.name === ".mcp.json")?.reason
    const listed: Array<Listed> = entries.map((entry) => {
      const server = loaded.servers.find((candidate) => candidate.name === entry.name)
      const runs = server !== undefined && server.scope === entry.scope && server.origin === entry.path
      const skipped = runs
        ? "_tag" in server.config
          ? server.config.message
          : undefined
        : server !== undefined
          ? `the ${server.scope} server of the same name is used instead`
          : entry.scope === "project"
            ? (projectSkip ?? loaded.skipped.find((skip) => skip.name === entry.name)?.reason ?? "not approved")
            : "not loaded"
      return { entry, skipped, status: runs ? statuses.find((status) => status.name === entry.name) : undefined }
    })
    return { listed, warnings: [...warnings, ...loaded.warnings] }
  })

const warn = (warnings: ReadonlyArray<string>) => Effect.forEach(warnings, (warning) => Output.stderr(`weft: ${warning}\n`))

const listCommand = Effect.gen(function* () {
  const where = yield* locations
  const { entries } = yield* McpConfigFile.entries(where)
  if (entries.length === 0) {
    yield* Output.stdout("No MCP servers configured. Use `weft mcp add` to add one.\n")
    return Outcome.Succeeded()
  }
  yield* Output.stdout("Checking MCP server health...\n\n")
  const { listed, warnings } = yield* survey(where, () => true)
  yield* warn(warnings)
  const lines = listed.map(
    ({ entry, skipped, status }) => `${entry.name} (${entry.scope}): ${describe(entry.raw)} - ${statusText(status, skipped)}\n`
  )
  yield* Output.stdout(lines.join(""))
  return Outcome.Succeeded()
})

const getCommand = (name: string) =>
  Effect.gen(function* () {
    const where = yield* locations
    const { listed, warnings } = yield* survey(where, (candidate) => candidate === name)
    yield* warn(warnings)
    const found = listed.filter((item) => item.entry.name === name)
    const shown = found[0]
    if (shown === undefined) return yield* new RunError({ message: `mcp: no MCP server named "${name}" (weft mcp list shows them).` })
    const { entry, skipped, status } = shown
    const raw = isRecord(entry.raw) ? entry.raw : {}
    const lines = [
      `${name}:`,
      `  Scope: ${entry.scope} (${McpConfigFile.scopeDescription[entry.scope]}), in ${entry.path}`,
      `  Status: ${statusText(status, skipped)}`
    ]
    const url = raw["url"]
    if (typeof url === "string") {
      lines.push(`  Type: ${raw["type"] === "sse" ? "sse" : "http"}`, `  URL: ${url}`)
      const headers = raw["headers"]
      if (isRecord(headers) && Object.keys(headers).length > 0) {
        lines.push("  Headers:", ...Object.entries(headers).map(([key, value]) => `    ${key}: ${String(value)}`))
      }
    } else {
      lines.push("  Type: stdio", `  Command: ${String(raw["command"] ?? "")}`)
      const args = raw["args"]
      lines.push(`  Args: ${Array.isArray(args) ? args.map(String).join(" ") : ""}`)
      const env = raw["env"]
      if (isRecord(env) && Object.keys(env).length > 0) {
        lines.push("  Environment:", ...Object.entries(env).map(([key, value]) => `    ${key}=${String(value)}`))
      }
      if (typeof raw["cwd"] === "string") lines.push(`  Directory: ${raw["cwd"]}`)
    }
    for (const other of found.slice(1)) lines.push(`  Also defined in the ${other.entry.scope} scope (${other.entry.path}), not used.`)
    lines.push(
      "",
      entry.writable
        ? `To remove this server, run: weft mcp remove ${name} --scope ${entry.scope}`
        : `It is Claude Code's (${entry.path}); remove it with: claude mcp remove ${name} --scope ${entry.scope}`
    )
    yield* Output.stdout(`${lines.join("\n")}\n`)
    return Outcome.Succeeded()
  })

const written = (scope: McpConfigFile.FileScope, name: string, config: Record<string, unknown>) =>
  Effect.gen(function* () {
    const path = yield* McpConfigFile.add(scope, yield* locations, name, config).pipe(
      Effect.mapError((error) => new RunError({ message: `mcp: ${error.message}` }))
    )
    const note =
      scope === "project"
        ? "\nA session runs it once the project is trusted (weft trust) and the server approved (enabledMcpjsonServers or enableAllProjectMcpServers in your settings)."
        : ""
    yield* Output.stdout(`Added MCP server ${name} to the ${scope} configuration\nFile modified: ${path}${note}\n`)
    return Outcome.Succeeded()
  })

const checkName = (name: string | undefined) =>
  name === undefined
    ? Effect.fail(usageError("give the server's name"))
    : validName.test(name)
      ? Effect.succeed(name)
      : Effect.fail(usageError(`the name ${JSON.stringify(name)} may only have letters, digits, "-" and "_"`))

const addCommand = (parsed: Parsed) =>
  Effect.gen(function* () {
    const values = yield* decode(parsed.raw)
    const [rawName, target, ...args] = parsed.positional
    const name = yield* checkName(rawName)
    if (target === undefined) return yield* usageError("give the server's command (stdio) or URL (http, sse) after its name")
    const scope = values.scope ?? "local"
    if (values.transport === "stdio") {
      if (values.header.length > 0) return yield* usageError("--header is for http and sse servers")
      if (/^https?:\/\//.test(target)) {
        return yield* usageError(`${JSON.stringify(target)} is a URL: give --transport http (or sse) to add a server at a URL`)
      }
      const env = Object.fromEntries(values.env.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]))
      return yield* written(scope, name, { type: "stdio", command: target, args, env })
    }
    if (args.length > 0) return yield* usageError(`an ${values.transport} server takes no arguments after its URL`)
    if (values.env.length > 0) return yield* usageError("--env is for stdio servers")
    const url = URL.canParse(target) ? new URL(target) : undefined
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
      return yield* usageError(`${JSON.stringify(target)} is not an http:// or https:// URL`)
    }
    const headers = Object.fromEntries(
      values.header.map((header) => [header.slice(0, header.indexOf(":")).trim(), header.slice(header.indexOf(":") + 1).trim()])
    )
    return yield* written(scope, name, { type: values.transport, url: target, ...(values.header.length > 0 ? { headers } : {}) })
  })

/** Any variable counts as set: add-json checks the shape, and a variable may well be set only where weft runs. */
const anyVariable: Readonly<Record<string, string | undefined>> = new Proxy({}, { get: () => "set" })

const addJsonCommand = (parsed: Parsed) =>
  Effect.gen(function* () {
    const values = yield* decode(parsed.raw)
    const [rawName, json, ...rest] = parsed.positional
    const name = yield* checkName(rawName)
    if (json === undefined || rest.length > 0) return yield* usageError("add-json takes the server's name and its JSON, one argument each")
    let config: unknown
    try {
      config = JSON.parse(json)
    } catch (error) {
      return yield* usageError(`the JSON is not valid: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (!isRecord(config)) return yield* usageError("the JSON must be an object")
    const checked = McpConfig.parseServer(name, config, "the JSON", anyVariable)
    if ("_tag" in checked) return yield* usageError(checked.message)
    return yield* written(values.scope ?? "local", name, config)
  })

const removeCommand = (parsed: Parsed) =>
  Effect.gen(function* () {
    const values = yield* decode(parsed.raw)
    if (parsed.positional.length > 1) return yield* usageError("remove takes one server's name")
    const name = yield* checkName(parsed.positional[0])
    const where = yield* locations
    const { entries } = yield* McpConfigFile.entries(where)
    const named = entries.filter((entry) => entry.name === name && (values.scope === undefined || entry.scope === values.scope))
    const ours = named.filter((entry) => entry.writable)
    const scopes = [...new Set(ours.map((entry) => entry.scope))]
    const scope = scopes[0]
    if (scope === undefined) {
      const theirs = named[0]
      return yield* new RunError({
        message:
          theirs === undefined
            ? `mcp: no MCP server named "${name}"${values.scope === undefined ? "" : ` in the ${values.scope} configuration`}.`
            : `mcp: "${name}" is in Claude Code's configuration (${theirs.path}), which weft does not rewrite: claude mcp remove ${name} --scope ${theirs.scope}`
      })
    }
    if (scopes.length > 1) {
      return yield* usageError(`"${name}" is in several scopes (${scopes.join(", ")}): give the one to remove it from with --scope`)
    }
    const removed = yield* McpConfigFile.remove(scope, where, name).pipe(
      Effect.mapError((error) => new RunError({ message: `mcp: ${error.message}` }))
    )
    if (!removed) return yield* new RunError({ message: `mcp: no MCP server named "${name}" in the ${scope} configuration.` })
    yield* Output.stdout(`Removed MCP server ${name} from the ${scope} configuration\nFile modified: ${McpConfigFile.fileOf(scope, where)}\n`)
    return Outcome.Succeeded()
  })

export const main = (args: ReadonlyArray<string>): Effect.Effect<Outcome, CliError> =>
  Effect.gen(function* () {
    const [sub, ...rest] = args
    if (sub === undefined) return yield* usageError("give a subcommand: list, get, add, add-json or remove")
    if (sub === "--help" || sub === "-h" || sub === "help") {
      yield* help()
      return Outcome.Succeeded()
    }
    const parsed = yield* Effect.fromResult(Result.mapError(parse(rest, sub === "add" ? 2 : Number.POSITIVE_INFINITY), usageError))
    if (parsed.help) {
      yield* help()
      return Outcome.Succeeded()
    }
    switch (sub) {
      case "list":
        if (parsed.positional.length > 0) return yield* usageError("list takes no arguments")
        return yield* listCommand
      case "get":
        if (parsed.positional.length !== 1) return yield* usageError("get takes one server's name")
        return yield* getCommand(parsed.positional[0] ?? "")
      case "add":
        return yield* addCommand(parsed)
      case "add-json":
        return yield* addJsonCommand(parsed)
      case "remove":
        return yield* removeCommand(parsed)
      default:
        return yield* usageError(`unknown subcommand ${JSON.stringify(sub)} (list, get, add, add-json, remove)`)
    }
  }).pipe(Effect.catchTag("OutputClosed", () => Effect.succeed(Outcome.OutputClosed())))
