/**
 * `weft` on a terminal: the interactive session. One more host of the Session service: what is typed is submitted,
 * the Session's events are drawn by the Controller, permission asks are questions on screen, Shift+Tab cycles the
 * permission mode, Esc / Ctrl-C interrupt the turn in flight. Slash commands steer the session (/clear and /resume
 * start another one over fresh services). Loaded only when `weft` runs without -p; the drawing code is a bundle
 * of its own (weft-ui.cjs).
 */
import type * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import * as nodePath from "node:path"
import * as Session from "../agent/Session.js"
import type { ContentBlock, TextBlock, ToolResultBlock } from "../domain/Content.js"
import type { MessageParam } from "../domain/Message.js"
import * as Content from "../domain/ContentGuards.js"
import { Settings } from "../context/Settings.js"
import { Memory } from "../context/Memory.js"
import { trust } from "../context/Trust.js"
import * as CommandExpansion from "../extensions/CommandExpansion.js"
import { describe as description, Extensions, find, type Loaded } from "../extensions/Extensions.js"
import { McpClient } from "../mcp/McpClient.js"
import * as McpPrompt from "../mcp/McpPrompt.js"
import type { Permissions, PermissionMode } from "../permissions/Permissions.js"
import type { ToolRegistry } from "../tools/ToolRegistry.js"
import { Prompter, type PromptAnswer, type PromptRequest } from "../permissions/Prompter.js"
import * as Credentials from "../platform/Credentials.js"
import * as Variables from "../platform/Variables.js"
import { cwdSlug, SessionStore } from "../session/SessionStore.js"
import type { PrintOptions } from "../cli/CliOptions.js"
import { type CliError, Outcome, RunError, UsageError } from "../cli/Outcome.js"
import * as SessionFlags from "../cli/SessionFlags.js"
import * as SessionServices from "../cli/SessionServices.js"
import * as SessionSetup from "../cli/SessionSetup.js"
import { version } from "../cli/Version.js"
import type { Controller, QuestionAnswer } from "./Controller.js"
import { makeIdleCollector } from "./IdleCollector.js"

/** The drawing modules (no effect inside): a bundle of their own, loaded here only. */
const loadTui = Effect.promise(() => import("./Controller.js"))

const modes: ReadonlyArray<PermissionMode> = ["default", "acceptEdits", "plan"]

/** The built-in slash commands: they come before a custom command or skill of the same name. */
const builtins = new Set(["/help", "/exit", "/quit", "/clear", "/compact", "/cost", "/model", "/permissions", "/mcp", "/resume", "/memory", "/init"])

const builtinHelp = [
  "Keys: Enter send · Shift+Enter or \\+Enter new line · ↑/↓ history · Ctrl+A/E/K/U/W edit",
  "      Shift+Tab permission mode · Esc or Ctrl-C interrupt · Ctrl-C twice or Ctrl-D exit",
  "Commands:",
  "  /help                   this help",
  "  /clear                  start a new conversation",
  "  /compact [instructions] summarise the conversation so far",
  "  /cost                   tokens and cost of this session",
  "  /model [name]           show or change the model",
  "  /permissions            the permission mode and rules in force",
  "  /mcp                    MCP servers and their status",
  "  /resume [n]             list this project's sessions, or open number n",
  "  /memory                 the memory files (CLAUDE.md) loaded",
  "  /init                   write a starter CLAUDE.md for this project",
  "  /exit                   leave",
  "  !command                run a shell command (permission rules apply); its output goes with your next prompt",
  "  #note                   add a line to the project's CLAUDE.md"
]

/** /help: the keys, the built-in commands, then the project's and the user's commands and skills. */
const help = (loaded: Loaded): string => {
  const custom = [...loaded.commands, ...loaded.skills].filter((item, index, all) => all.findIndex((other) => other.name === item.name) === index)
  const shown = custom.filter((item) => !builtins.has(`/${item.name}`))
  return [
    ...builtinHelp,
    ...(shown.length === 0
      ? []
      : ["Custom commands and skills:", ...shown.map((item) => `  ${`/${item.name}${item.argumentHint === undefined ? "" : ` ${item.argumentHint}`}`.padEnd(23)} ${description(item)}`)]),
    "MCP prompts: /mcp__<server>__<prompt> [arguments]"
  ].join("\n")
}

/** A `!command`'s call and output, as Claude Code's bash mode puts them in the conversation (with the next prompt). */
const shellContext = (command: string, result: ToolResultBlock): ReadonlyArray<TextBlock> => {
  const output = Content.toolResultText(result.content)
  const tag = result.is_error === true ? "bash-stderr" : "bash-stdout"
  return [
    { type: "text", text: `<bash-input>${command}</bash-input>` },
    { type: "text", text: `<${tag}>${output}</${tag}>` }
  ]
}

/** Prompts typed in this project, under $WEFT_HOME/history (one JSON string a line). */
const historyFile = (weftHome: string, cwd: string) => nodePath.join(weftHome, "history", `${cwdSlug(cwd)}.jsonl`)

const loadHistory = (file: string): ReadonlyArray<string> => {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .slice(-500)
      .flatMap((line) => {
        try {
          const value: unknown = JSON.parse(line)
          return typeof value === "string" ? [value] : []
        } catch {
          return []
        }
      })
  } catch {
    return []
  }
}

const appendHistory = (file: string, prompt: string) => {
  try {
    mkdirSync(nodePath.dirname(file), { recursive: true })
    appendFileSync(file, `${JSON.stringify(prompt)}\n`)
  } catch {
    // History is a convenience: a read-only home does not stop the session.
  }
}

/** The rules an "always" answer keeps: the ask's suggested allow rules. */
const alwaysRules = (request: PromptRequest): ReadonlyArray<string> =>
  (request.suggestions ?? []).flatMap((update) =>
    update.type === "addRules" && update.behavior === "allow"
      ? update.rules.map((rule) => (rule.ruleContent === undefined || rule.ruleContent === "" ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`))
      : []
  )

type Next = { readonly _tag: "Exit" } | { readonly _tag: "Restart"; readonly resume?: string }

interface Start {
  readonly sessionId?: string
  readonly resumed?: { readonly history: ReadonlyArray<MessageParam>; readonly leafUuid: string | null }
}

/** Runs the interactive session until the user leaves. */
export const runInteractive = (options: PrintOptions): Effect.Effect<Outcome, CliError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      return yield* new UsageError({
        message: 'the interactive mode needs a terminal (stdin and stdout). Run a prompt with -p, e.g. weft -p "explain this project".'
      })
    }
    const flagConflict = SessionFlags.conflict(options)
    if (flagConflict !== undefined) return yield* new UsageError({ message: flagConflict })
    const cwd = process.cwd()
    const credentials = Credentials.fromEnv(process.env)
    const weftHome = yield* Effect.flatMap(Variables.home, Variables.weftHomeOf)
    const history = historyFile(weftHome, cwd)
    const Tui = yield* loadTui
    const collectIdle = makeIdleCollector()

    const stdout = process.stdout
    const stdin = process.stdin
    // What the controller asks of the session in force (set by each session below).
    let current: {
      readonly submit: (text: string) => void
      readonly interrupt: () => void
      readonly cycleMode: () => void
    } | undefined
    const waiting: Array<string> = []
    const exit = yield* Deferred.make<Next>()
    const runFork = Effect.runForkWith(yield* Effect.context<never>())
    const controller: Controller = new Tui.Controller({
      sink: { write: (bytes) => void stdout.write(bytes), columns: () => stdout.columns ?? 80 },
      color: process.env["NO_COLOR"] === undefined || process.env["NO_COLOR"] === "",
      now: () => Date.now(),
      timers: {
        schedule: (run, ms) => {
          const timer = setTimeout(run, ms)
          return () => clearTimeout(timer)
        }
      },
      cwd,
      // weft's credentials never reach the screen (as `weft -p` redacts what it prints).
      redact: (text) => credentials.redact(text),
      history: loadHistory(history),
      ...(options.permissionMode === undefined ? {} : { mode: options.permissionMode }),
      host: {
        submit: (text) => {
          // Typed before the session is ready (or between two sessions): sent once it is.
          if (current === undefined) waiting.push(text)
          else current.submit(text)
        },
        complete: (partial) => completePath(cwd, partial),
        // The history as shown (a large paste as its placeholder), one line a prompt.
        remember: (prompt) => appendHistory(history, prompt),
        interrupt: () => current?.interrupt(),
        cycleMode: () => current?.cycleMode(),
        exit: () => runFork(Deferred.succeed(exit, { _tag: "Exit" }))
      }
    })

    // The terminal: raw keys, bracketed paste, redrawn on resize; restored however the session ends.
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        const onData = (chunk: Buffer | string) => controller.input(typeof chunk === "string" ? chunk : chunk.toString("utf8"))
        // Decoded as UTF-8 across reads (a character cut between two chunks is kept whole).
        stdin.setEncoding("utf8")
        const onResize = () => {
          controller.screen.resize()
          controller.draw()
        }
        // A signal from outside (the terminal closed, kill): leave as Ctrl-D does, the terminal restored.
        const onSignal = () => runFork(Deferred.succeed(exit, { _tag: "Exit" }))
        // The terminal went away under a write (EIO, EPIPE): leave likewise, rather than fail on an unhandled error.
        stdout.on("error", onSignal)
        stdin.setRawMode(true)
        stdin.on("data", onData)
        stdin.resume()
        stdout.on("resize", onResize)
        stdout.write("\x1b[?2004h")
        process.on("SIGTERM", onSignal).on("SIGHUP", onSignal).on("SIGINT", onSignal)
        return { onData, onResize, onSignal }
      }),
      ({ onData, onResize, onSignal }) =>
        Effect.sync(() => {
          process.off("SIGTERM", onSignal).off("SIGHUP", onSignal).off("SIGINT", onSignal)
          controller.close()
          stdout.off("error", onSignal)
          stdout.write("\x1b[?2004l")
          stdout.off("resize", onResize)
          stdin.off("data", onData)
          stdin.setRawMode(false)
          stdin.pause()
        })
    )

    let start: Start = {}
    if (SessionFlags.needsStore(options)) {
      const store = yield* SessionStore.make().pipe(Effect.provideService(Credentials.Credentials, credentials))
      const resolved = yield* SessionFlags.resolve(options, { cwd, store })
      start = {
        ...(resolved.sessionId === undefined ? {} : { sessionId: resolved.sessionId }),
        ...(resolved.resumed === undefined ? {} : { resumed: { history: resolved.resumed.history, leafUuid: resolved.resumed.leafUuid } })
      }
      for (const warning of resolved.warnings) controller.print(`weft: ${warning}`, { color: "yellow" })
    }

    const loadSettings = SessionSetup.loadSettings(options, cwd)
    let settings = yield* loadSettings
    // An untrusted project whose own settings or .mcp.json ask for what only trust gives: asked once, as
    // `weft trust` records it (declining leaves it untrusted, asked again next time).
    const projectServers = existsSync(nodePath.join(cwd, ".mcp.json"))
    if (!settings.trusted && (settings.ignored.length > 0 || projectServers)) {
      const asked = [
        ...settings.ignored.map((ignored) => `${ignored.origin}: ${ignored.keys.join(", ")}`),
        ...(projectServers ? [".mcp.json: its MCP servers"] : [])
      ]
      const answer = yield* Effect.callback<number | undefined>((resume) => {
        controller.choose(
          `Trust ${cwd}?`,
          [
            "Its own settings ask for what only a trusted project gets (running hooks and MCP servers, setting the",
            "environment, widening permissions):",
            ...asked.map((line) => `  ${line}`)
          ],
          ["Yes, trust this project (recorded as `weft trust` does)", "No, go on without them"],
          (index) => resume(Effect.succeed(index))
        )
      })
      if (answer === 0) {
        const real = yield* trust(weftHome, cwd).pipe(Effect.mapError((error) => new RunError({ message: error.message })))
        controller.print(`Trusted ${real}.`, { dim: true })
        settings = yield* loadSettings
      } else controller.print("Not trusted: the project's own hooks, MCP servers and permission widenings are left out.", { dim: true })
    }
    for (const warning of settings.warnings) controller.print(credentials.redact(warning), { color: "yellow" })
    // Refused when a settings file could not be read (it may hold deny rules); then the MCP servers and the rest.
    const loaded = yield* SessionSetup.fromSettings(options, cwd, settings, (text) =>
      Effect.sync(() => controller.print(credentials.redact(text.trimEnd()), { color: "yellow" }))
    )
    controller.print(`weft ${version} · ${cwd}`, { dim: true })
    controller.print("/help for commands · Shift+Tab for modes · Ctrl-C twice to exit\n", { dim: true })

    // One session over fresh services; answers what comes next (leave, or another session).
    const runSession = (start: Start) =>
      Effect.gen(function* () {
        let session: Session.Interface | undefined
        const ask = (request: PromptRequest) =>
          Effect.callback<PromptAnswer>((resume) => {
            const rules = alwaysRules(request)
            controller.ask(
              { toolUseId: request.toolUseId, toolName: request.toolName, input: request.input, reason: request.reason, alwaysRules: rules },
              (answer: QuestionAnswer) => {
                if (answer._tag === "once") return resume(Effect.succeed({ _tag: "Allow" }))
                if (answer._tag === "deny") {
                  return resume(
                    Effect.succeed({
                      _tag: "Deny",
                      reason: answer.note === "" ? "The user denied this call." : `The user denied this call and said: ${answer.note}`
                    })
                  )
                }
                // Always: the rules go into .claude/settings.local.json through the Session, then the call runs.
                const keep = session === undefined ? Effect.void : session.addRules(rules, "allow", "localSettings")
                resume(
                  keep.pipe(
                    Effect.catch((error) => Effect.sync(() => controller.print(`weft: the rule was not saved: ${error.message}`, { color: "red" }))),
                    Effect.as<PromptAnswer>({ _tag: "Allow" })
                  )
                )
              }
            )
            return Effect.sync(() => controller.withdraw(request.toolUseId))
          })
        const prompter = Prompter.fromEffect(ask)
        // The session the flags and settings describe, as `-p` and the SDK protocol build it (--sandbox,
        // --fallback-model, --no-session-persistence, ... included), with the terminal answering the asks.
        const flagsStart: SessionSetup.Start = {
          cwd,
          store: undefined,
          start: {
            sessionId: start.sessionId,
            warnings: [],
            ...(start.resumed === undefined ? {} : { resumed: { from: start.sessionId ?? "", costUSD: 0, ...start.resumed } })
          }
        }
        const layer = SessionSetup.layer(options, flagsStart, loaded, { prompter })
        return yield* Effect.gen(function* () {
          const conversation = yield* Session.Session
          session = conversation
          const store = yield* SessionStore
          const memory = yield* Memory
          const extensions = yield* Extensions
          const mcp = yield* McpClient
          // What a prompt needs from the session's services to be expanded (CommandExpansion.prepare).
          const services = yield* Effect.context<Extensions | McpClient | Permissions | ToolRegistry | Settings>()
          const status = yield* conversation.status
          controller.setMode(status.permissionMode)
          controller.event({ _tag: "ModelChanged", model: status.model })
          if (start.resumed !== undefined) showConversation(controller, start.resumed.history)
          const events = yield* conversation.subscribe
          yield* Effect.forkScoped(
            Stream.runForEach(events, (event) =>
              Effect.sync(() => {
                controller.event(event)
                if (event._tag === "TurnEnded") collectIdle?.()
              })
            )
          )
          const next = yield* Deferred.make<Next>()
          const say = (text: string) => Effect.sync(() => controller.print(text))
          const failed = (error: { readonly message: string }) => say(`weft: ${error.message}`)
          const command = (text: string): Effect.Effect<void> => {
            const [name = "", ...rest] = text.trim().split(/\s+/)
            const argument = text.trim().slice(name.length).trim()
            switch (name) {
              case "/help":
                return say(help(extensions))
              case "/exit":
              case "/quit":
                return Deferred.succeed(next, { _tag: "Exit" }).pipe(Effect.asVoid)
              case "/clear":
                return Effect.sync(() => controller.clearScreen()).pipe(Effect.andThen(Deferred.succeed(next, { _tag: "Restart" })), Effect.asVoid)
              case "/compact":
                return conversation.compact(argument === "" ? undefined : argument).pipe(Effect.catch(failed))
              case "/cost":
                return Effect.flatMap(conversation.status, (now) =>
                  say(
                    `Total cost: $${now.totals.costUSD.toFixed(4)} · ${now.totals.responses} responses · ` +
                      `${now.totals.usage.input_tokens} input, ${now.totals.usage.output_tokens} output tokens` +
                      (now.contextTokens === undefined ? "" : ` · context ${now.contextTokens} tokens`)
                  )
                )
              case "/model":
                return argument === ""
                  ? Effect.flatMap(conversation.status, (now) => say(`Model: ${now.model} (/model <name> to change it)`))
                  : conversation.setModel(argument).pipe(Effect.andThen(say(`Model set to ${argument}`)))
              case "/permissions":
                return Effect.flatMap(conversation.status, (now) => {
                  const rules = settings.value.permissions
                  return say(
                    [
                      `Mode: ${now.permissionMode}`,
                      `Allow: ${(rules?.allow ?? []).join(", ") || "(none)"}`,
                      `Deny: ${(rules?.deny ?? []).join(", ") || "(none)"}`,
                      `Ask: ${(rules?.ask ?? []).join(", ") || "(none)"}`,
                      "Rules allowed \"always\" at a question are kept in .claude/settings.local.json."
                    ].join("\n")
                  )
                })
              case "/mcp":
                return Effect.flatMap(conversation.status, (now) =>
                  say(
                    now.servers.length === 0
                      ? "No MCP servers."
                      : now.servers.map((server) => `${server.name}: ${server.status}${server.error === undefined ? "" : ` (${server.error})`}`).join("\n")
                  )
                )
              case "/memory":
                return say(
                  memory.files.length === 0
                    ? "No memory files loaded (/init writes a CLAUDE.md)."
                    : memory.files.map((file) => `${file.scope}: ${file.path}`).join("\n")
                )
              case "/init":
                return Effect.sync(() => controller.print(initMemory(cwd)))
              case "/resume": {
                return store.list(cwd).pipe(
                  Effect.flatMap((sessions): Effect.Effect<void> => {
                    const others = sessions.filter((info) => info.sessionId !== conversation.sessionId).slice(0, 20)
                    const pick = Number.parseInt(rest[0] ?? "", 10)
                    const chosen = others[pick - 1]
                    if (chosen !== undefined) return Deferred.succeed(next, { _tag: "Restart", resume: chosen.sessionId }).pipe(Effect.asVoid)
                    if (others.length === 0) return say("No other session in this project.")
                    return say(
                      [
                        ...others.map(
                          (info, index) =>
                            `${String(index + 1).padStart(2)}. ${info.lastModified.toISOString().slice(0, 16).replace("T", " ")}  ${info.firstPrompt || "(no prompt)"}`
                        ),
                        "Open one with /resume <number>."
                      ].join("\n")
                    )
                  }),
                  Effect.catch(failed)
                )
              }
              default:
                return say(`Unknown command ${name}. /help lists the commands.`)
            }
          }
          // The output of `!command`s run since the last prompt: it goes with the next one.
          const shellOutputs: Array<TextBlock> = []
          // The skills listing goes with the session's first prompt only.
          let listed = false
          /**
           * A prompt expanded as `weft -p` expands its prompt (an MCP prompt's messages; a custom command or skill
           * with its arguments, `@path`s, `!`cmd``s, allowed tools and model), then queued. A refused expansion is
           * said, and nothing is sent.
           */
          const send = (text: string): Effect.Effect<void> =>
            Effect.gen(function* () {
              const parsed = CommandExpansion.parseCommand(text)
              const isMcpPrompt = McpPrompt.parse(text) !== undefined
              if (parsed !== undefined && !isMcpPrompt && find(extensions, parsed.name) === undefined) {
                return yield* say(`Unknown command /${parsed.name}. /help lists the commands.`)
              }
              const fromMcp = yield* McpPrompt.expand(mcp, text)
              // A command's `!`cmd`` or `@path` that must be asked about is asked here, as the model's calls are.
              // A typed prompt's `@path`s are attached (read through Read), not an MCP prompt's messages.
              const expanded = yield* CommandExpansion.prepare(fromMcp ?? text, {
                sessionId: conversation.sessionId,
                listing: !listed,
                mentions: fromMcp === undefined
              }).pipe(
                Effect.provide(services),
                Effect.provideService(Prompter, prompter)
              )
              listed = true
              const context = shellOutputs.splice(0)
              yield* conversation.submit([...context, ...expanded.content], {
                reminders: expanded.reminders,
                ...(expanded.model === undefined ? {} : { model: expanded.model })
              })
            }).pipe(Effect.catch(failed))
          /** `!command`: run as the user through the Session (the Bash tool, its rules and hooks), kept for the next prompt. */
          const shell = (command: string): Effect.Effect<void> =>
            command === ""
              ? say("Type the command after !, e.g. !git status")
              : conversation.runTool("Bash", { command }).pipe(
                  Effect.flatMap((result) =>
                    Effect.sync(() => shellOutputs.push(...shellContext(command, result))).pipe(
                      Effect.andThen(Effect.sync(() => controller.print("  (the output goes to the model with your next prompt)", { dim: true })))
                    )
                  ),
                  Effect.catch(failed)
                )
          // Prompts, commands and `!command`s are taken in the order typed (an expansion may take a while).
          const inOrder = yield* Semaphore.make(1)
          current = {
            submit: (text) => {
              const trimmed = text.trim()
              if (trimmed.startsWith("#") && !trimmed.startsWith("##")) return runFork(say(addNote(cwd, trimmed.slice(1).trim())))
              const name = trimmed.split(/\s+/)[0] ?? ""
              const run = builtins.has(name) ? command(trimmed) : trimmed.startsWith("!") ? shell(trimmed.slice(1).trim()) : send(text)
              runFork(inOrder.withPermit(run))
            },
            interrupt: () => runFork(conversation.interrupt),
            cycleMode: () =>
              runFork(
                Effect.flatMap(conversation.status, (now) => {
                  const index = modes.indexOf(now.permissionMode)
                  const mode = modes[(index + 1) % modes.length] ?? "default"
                  return conversation.setPermissionMode(mode).pipe(Effect.catch(failed))
                })
              )
          }
          for (const text of waiting.splice(0)) current.submit(text)
          controller.draw()
          const chosen = yield* Effect.raceFirst(Deferred.await(next), Deferred.await(exit))
          current = undefined
          return chosen
        }).pipe(Effect.scoped, Effect.provide(layer), Effect.mapError((error) => new RunError({ message: credentials.redact(error.message) })))
      })

    let next: Next = yield* runSession(start)
    while (next._tag === "Restart") {
      controller.reset()
      const resumeId = next.resume
      if (resumeId === undefined) next = yield* runSession({})
      else {
        const store = yield* SessionStore.make().pipe(Effect.provideService(Credentials.Credentials, credentials))
        const resolved = yield* SessionFlags.resolve({ resume: resumeId, continueSession: false, forkSession: false, sessionId: undefined, noSessionPersistence: false }, { cwd, store })
        controller.print(`Resumed session ${resumeId}`, { dim: true })
        next = yield* runSession({
          ...(resolved.sessionId === undefined ? {} : { sessionId: resolved.sessionId }),
          ...(resolved.resumed === undefined ? {} : { resumed: { history: resolved.resumed.history, leafUuid: resolved.resumed.leafUuid } })
        })
      }
    }
    return Outcome.Succeeded()
  }).pipe(Effect.scoped)

/** A resumed conversation, as it was: the prompts, the answers and the tool calls. */
const showConversation = (controller: Controller, history: ReadonlyArray<MessageParam>) => {
  for (const message of history) {
    const blocks: ReadonlyArray<ContentBlock> = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content
    for (const block of blocks) {
      if (Content.isText(block)) {
        if (message.role === "user") controller.print(`> ${block.text}`, { bold: true })
        else controller.event({ _tag: "TextDelta", index: 0, text: `${block.text}\n` })
      } else if (Content.isToolUse(block)) {
        controller.event({ _tag: "ToolStarted", toolUseId: block.id, toolName: block.name, input: block.input })
      }
    }
  }
  controller.endText()
  controller.print("── resumed ──", { dim: true })
}

/** `#note`: appended to the project's CLAUDE.md (read by the next session's memory; this one has it in its history). */
const addNote = (cwd: string, note: string): string => {
  if (note === "") return "Nothing to note: type # and the note."
  const file = nodePath.join(cwd, "CLAUDE.md")
  try {
    const before = existsSync(file) ? readFileSync(file, "utf8") : ""
    appendFileSync(file, `${before === "" || before.endsWith("\n") ? "" : "\n"}- ${note.replace(/\s*\n\s*/g, " ")}\n`)
    return `Noted in ${file}`
  } catch (error) {
    return `weft: could not write ${file}: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** Completions of `partial` (a path relative to the project, as typed after `@`): entries of its directory. */
const completePath = (cwd: string, partial: string): ReadonlyArray<string> => {
  const slash = partial.lastIndexOf("/")
  const directory = slash < 0 ? "" : partial.slice(0, slash + 1)
  const prefix = partial.slice(slash + 1)
  try {
    return readdirSync(nodePath.resolve(cwd, directory === "" ? "." : directory), { withFileTypes: true })
      .filter((entry) => entry.name.startsWith(prefix) && (prefix.startsWith(".") || !entry.name.startsWith(".")))
      .filter((entry) => entry.name !== "node_modules" || prefix !== "")
      .map((entry) => `${directory}${entry.name}${entry.isDirectory() ? "/" : ""}`)
      .sort()
  } catch {
    return []
  }
}

/** /init: a starter CLAUDE.md from what the project shows (its top-level entries and package scripts). */
const initMemory = (cwd: string): string => {
  const file = nodePath.join(cwd, "CLAUDE.md")
  if (existsSync(file)) return "CLAUDE.md exists already; edit it, or ask me to improve it."
  const entries = readdirSync(cwd, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith("."))
    .map((entry) => `- ${entry.name}${entry.isDirectory() ? "/" : ""}`)
    .slice(0, 30)
  let scripts: Array<string> = []
  try {
    const manifest: unknown = JSON.parse(readFileSync(nodePath.join(cwd, "package.json"), "utf8"))
    const found = typeof manifest === "object" && manifest !== null && "scripts" in manifest ? manifest.scripts : undefined
    if (typeof found === "object" && found !== null) scripts = Object.keys(found).map((name) => `- npm run ${name}`)
  } catch {
    // No package.json: no scripts to list.
  }
  const text = [
    `# ${nodePath.basename(cwd)}`,
    "",
    "## Layout",
    ...entries,
    ...(scripts.length === 0 ? [] : ["", "## Commands", ...scripts]),
    "",
    "## Conventions",
    "- (add the project's conventions here)",
    ""
  ].join("\n")
  writeFileSync(file, text)
  return "Wrote CLAUDE.md (loaded by the next session; /clear starts one)."
}

