/**
 * The interactive terminal's state and drawing, without Effect: it takes the terminal's input and the Session's
 * events, keeps the prompt, the streaming answer, the permission question and the status line, and draws frames
 * on a Screen. What it cannot do itself (send a prompt, interrupt, change the mode, answer an ask, exit) it asks of
 * its Host, which drives the Session (Interactive.ts).
 *
 * Frames are capped (`frameMs`) and the spinner ticks at `spinnerMs` only while a turn runs: at the prompt, idle,
 * no timer is set at all.
 */
import type { AgentEvent } from "../domain/AgentEvent.js"
import type { ToolResultBlock } from "../domain/Content.js"
import type { Hunk } from "../domain/Patch.js"
import * as Content from "../domain/ContentGuards.js"
import * as Keys from "./Keys.js"
import * as LineEditor from "./LineEditor.js"
import * as Markdown from "./Markdown.js"
import { Screen, type Sink } from "./Screen.js"
import { charWidth, type Line, sanitize, span, type Style, textWidth, toAnsi, wrap } from "./Text.js"

export interface Host {
  /** A prompt or a slash command typed at the prompt. */
  readonly submit: (text: string) => void
  readonly interrupt: () => void
  readonly cycleMode: () => void
  readonly exit: () => void
  /** A prompt was sent, as the history shows it (a large paste as its placeholder): the host keeps it. */
  readonly remember?: (prompt: string) => void
  /** Paths that complete `partial` (relative to the project; directories end in "/"), for `@path` and Tab. */
  readonly complete?: (partial: string) => ReadonlyArray<string>
}

export interface Timers {
  /** Runs `run` after `ms`; answers what cancels it. */
  readonly schedule: (run: () => void, ms: number) => () => void
}

export interface Options {
  readonly sink: Sink
  readonly host: Host
  readonly color: boolean
  readonly now: () => number
  readonly timers: Timers
  readonly cwd: string
  /** Applied to every text drawn (weft's credentials redacted). */
  readonly redact?: (text: string) => string
  readonly history?: ReadonlyArray<string>
  readonly mode?: string
  readonly model?: string
}

/** What the user answered to a permission question. */
export type QuestionAnswer = { readonly _tag: "once" } | { readonly _tag: "always" } | { readonly _tag: "deny"; readonly note: string }

export interface Question {
  readonly toolUseId: string
  readonly toolName: string
  readonly input: unknown
  readonly reason: string
  /** The rules an "always" answer keeps, when the ask suggested some. */
  readonly alwaysRules: ReadonlyArray<string>
}

interface Asking extends Question {
  readonly answer: (answer: QuestionAnswer) => void
  selected: number
  /** Typing the note of a denial. */
  noting: boolean
}

interface Menu {
  readonly title: string
  readonly detail: ReadonlyArray<string>
  readonly choices: ReadonlyArray<string>
  readonly answer: (index: number | undefined) => void
  selected: number
}

/** The prompt's rows shown at most (the rest scrolls with the cursor). */
const maxPromptRows = 8

/** Least time between two frames: 30 frames a second at most. */
const frameMs = 33
/** The spinner's period while a turn runs: 10 frames a second at most. */
const spinnerMs = 100

const spinnerFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

const dim: Style = { dim: true }

const record = (input: unknown): Readonly<Record<string, unknown>> =>
  typeof input === "object" && input !== null ? { ...input } : {}
const stringField = (input: unknown, key: string): string | undefined => {
  const value = record(input)[key]
  return typeof value === "string" ? value : undefined
}

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** `● Read(src/a.ts)`: the call's main argument, paths relative to the project. */
const describeCall = (toolName: string, input: unknown, cwd: string): string => {
  const path = stringField(input, "file_path") ?? stringField(input, "notebook_path") ?? stringField(input, "path")
  const relative = path !== undefined && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path
  const main = relative ?? stringField(input, "command") ?? stringField(input, "pattern") ?? stringField(input, "url") ?? stringField(input, "prompt")
  const shown = main ?? (Object.keys(record(input)).length === 0 ? "" : JSON.stringify(input))
  return `${toolName}(${oneLine(shown, 60)})`
}

const maxResultLines = 4
const maxDiffLines = 12

const diffLines = (toolName: string, input: unknown): ReadonlyArray<Line> | undefined => {
  const pairs: Array<{ readonly removed: string; readonly added: string }> = []
  if (toolName === "Edit") pairs.push({ removed: stringField(input, "old_string") ?? "", added: stringField(input, "new_string") ?? "" })
  else if (toolName === "MultiEdit") {
    const edits = record(input)["edits"]
    for (const edit of Array.isArray(edits) ? edits : []) {
      pairs.push({ removed: stringField(edit, "old_string") ?? "", added: stringField(edit, "new_string") ?? "" })
    }
  } else if (toolName === "Write") pairs.push({ removed: "", added: stringField(input, "content") ?? "" })
  else return undefined
  const lines: Array<Line> = []
  for (const pair of pairs) {
    const removed = pair.removed === "" ? [] : pair.removed.split("\n")
    const added = pair.added === "" ? [] : pair.added.replace(/\n$/, "").split("\n")
    for (const text of removed) lines.push([span(`- ${text}`, { color: "red" })])
    for (const text of added) lines.push([span(`+ ${text}`, { color: "green" })])
  }
  if (lines.length <= maxDiffLines) return lines
  return [...lines.slice(0, maxDiffLines), [span(`… +${lines.length - maxDiffLines} lines`, dim)]]
}

/**
 * A file change as the tool reported it (its structured patch): each hunk's lines numbered (the old file's number
 * for a removed line, the new file's for the others), hunks apart by "⋮"; a file written anew is its lines added.
 */
const patchLines = (patch: ReadonlyArray<Hunk>, toolName: string, input: unknown): ReadonlyArray<Line> | undefined => {
  const numbered: Array<{ readonly number: number; readonly op: string; readonly text: string }> = []
  const gaps = new Set<number>()
  for (const hunk of patch) {
    if (numbered.length > 0) gaps.add(numbered.length)
    let oldLine = hunk.oldStart
    let newLine = hunk.newStart
    for (const line of hunk.lines) {
      const op = line.slice(0, 1)
      const text = line.slice(1)
      if (op === "-") numbered.push({ number: oldLine++, op, text })
      else if (op === "+") numbered.push({ number: newLine++, op, text })
      else {
        numbered.push({ number: newLine++, op: " ", text })
        oldLine++
      }
    }
  }
  if (numbered.length === 0) {
    // Write of a new file: no hunks (nothing was there before); its lines are the change.
    const content = toolName === "Write" ? stringField(input, "content") : undefined
    if (content === undefined || content === "") return undefined
    content.replace(/\n$/, "").split("\n").forEach((text, index) => numbered.push({ number: index + 1, op: "+", text }))
  }
  const width = String(Math.max(...numbered.map((line) => line.number))).length
  const lines: Array<Line> = []
  numbered.slice(0, maxDiffLines).forEach((line, index) => {
    if (gaps.has(index)) lines.push([span(`${" ".repeat(width)}   ⋮`, dim)])
    const style: Style = line.op === "-" ? { color: "red" } : line.op === "+" ? { color: "green" } : dim
    lines.push([span(`${String(line.number).padStart(width)} `, dim), span(`${line.op} ${line.text}`, style)])
  })
  if (numbered.length > maxDiffLines) lines.push([span(`… +${numbered.length - maxDiffLines} lines`, dim)])
  return lines
}

/**
 * The few lines shown under a finished tool call: a diff for edits (from the tool's structured patch, when the call
 * reported one; else from its input), else the head of its result.
 */
const resultLines = (
  toolName: string,
  input: unknown,
  block: ToolResultBlock,
  isError: boolean,
  patch?: ReadonlyArray<Hunk>
): ReadonlyArray<Line> => {
  const diff = isError ? undefined : (patch === undefined ? undefined : patchLines(patch, toolName, input)) ?? diffLines(toolName, input)
  const body: ReadonlyArray<Line> =
    diff ??
    (() => {
      const text = Content.toolResultText(block.content).replace(/\n+$/, "")
      const lines = text === "" ? ["(no output)"] : text.split("\n")
      const head = lines.slice(0, maxResultLines).map((line): Line => [span(line, isError ? { color: "red" } : dim)])
      return lines.length > maxResultLines ? [...head, [span(`… +${lines.length - maxResultLines} lines (ctrl+o to show all)`, dim)]] : head
    })()
  return body.map((line, index) => [span(index === 0 ? "  ⎿  " : "     ", dim), ...line])
}

/** Token counts as the status line shows them. */
const tokens = (count: number) => (count >= 1000 ? `${(count / 1000).toFixed(1)}k` : `${count}`)

export class Controller {
  readonly screen: Screen
  private editor: LineEditor.State
  private pendingInput = ""
  private markdown: Markdown.State = Markdown.initial
  private thinking: Markdown.State = Markdown.initial
  /** Finished lines not yet drawn. */
  private finished: Array<Line> = []
  private question: Asking | undefined
  /** A choice asked before the session starts (trusting the project). */
  private menu: Menu | undefined
  /** The prompt typed before a denial's note was asked for. */
  private savedPrompt: LineEditor.State | undefined
  private inputs = new Map<string, unknown>()
  /** The last tool result shown cut short, whole (Ctrl+O shows it). */
  private lastResult: { readonly call: string; readonly text: string } | undefined
  /** The last line a running tool reported (a command's output as it comes), shown on the streaming row. */
  private progress: string | undefined
  /** Completions offered by the last Tab, shown under the prompt until the next key. */
  private completions: ReadonlyArray<string> = []
  private busy = false
  private turnStarted = 0
  private outputTokens = 0
  private streamedChars = 0
  /** Text deltas came for the message being answered. */
  private streamedText = false
  private costUsd = 0
  private compacting = false
  /** What the status line shows of the running turn, refreshed by the spinner's ticks (not by every token). */
  private shown = { elapsed: 0, tokens: 0 }
  private notice: string | undefined
  private exitArmed = false
  private mode: string
  private model: string
  private frameTimer: (() => void) | undefined
  private spinnerTimer: (() => void) | undefined
  private lastFrame = Number.NEGATIVE_INFINITY
  private closed = false

  constructor(private readonly options: Options) {
    this.screen = new Screen(options.sink)
    this.editor = LineEditor.empty(options.history ?? [])
    this.mode = options.mode ?? "default"
    this.model = options.model ?? ""
  }

  // ---- input

  /** Bytes from the terminal. */
  input(chunk: string): void {
    const parsed = Keys.parse(this.pendingInput, chunk)
    this.pendingInput = parsed.pending
    for (const key of parsed.keys) this.key(key)
    // Echo at once: typing is never held back by the frame cap.
    this.draw()
  }

  key(key: Keys.Key): void {
    if (key._tag !== "ctrlC") this.exitArmed = false
    if (this.notice !== undefined && key._tag !== "ctrlC") this.notice = undefined
    this.completions = []
    if (this.menu !== undefined) return this.menuKey(this.menu, key)
    if (this.question !== undefined && this.questionKey(this.question, key)) return
    switch (key._tag) {
      case "ctrlC":
        if (this.busy) {
          this.options.host.interrupt()
          return
        }
        if (this.editor.text !== "") {
          this.editor = LineEditor.empty(this.editor.history)
          return
        }
        if (this.exitArmed) return this.options.host.exit()
        this.exitArmed = true
        this.notice = "Press Ctrl-C again to exit"
        return
      case "escape":
        if (this.busy) this.options.host.interrupt()
        return
      case "ctrlD":
        if (this.editor.text === "") return this.options.host.exit()
        this.editor = LineEditor.apply(this.editor, { _tag: "delete" }).state
        return
      case "shiftTab":
        return this.options.host.cycleMode()
      case "ctrlL":
        this.screen.clear()
        return
      case "tab":
        return this.completePath()
      case "ctrlO": {
        const last = this.lastResult
        if (last === undefined) return
        this.finished.push([span(`● ${last.call} (whole result)`, { bold: true })], ...last.text.split("\n").map((line): Line => [span(`  ${line}`, dim)]), [])
        return
      }
      default: {
        const applied = LineEditor.apply(this.editor, key)
        this.editor = applied.state
        if (applied.submitted === undefined) return
        const text = applied.submitted.trim()
        if (text === "") return
        const shown = applied.shown ?? applied.submitted
        this.options.host.remember?.(shown)
        this.echoPrompt(shown)
        this.options.host.submit(applied.submitted)
      }
    }
  }

  /** Tab after `@partial`: the path completed as far as it is unique; the choices shown when several remain. */
  private completePath() {
    const complete = this.options.host.complete
    if (complete === undefined) return
    const before = this.editor.text.slice(0, this.editor.cursor)
    const match = /@([^\s@]*)$/.exec(before)
    if (match === null) return
    const partial = match[1] ?? ""
    const found = complete(partial)
    if (found.length === 0) return
    let common = found[0] ?? ""
    for (const candidate of found) while (!candidate.startsWith(common)) common = common.slice(0, -1)
    if (common.length > partial.length) {
      this.editor = LineEditor.apply(this.editor, { _tag: "char", text: common.slice(partial.length) }).state
    }
    if (found.length > 1) this.completions = found.slice(0, 12)
  }

  /** A key while a permission question is open: true when the question took it. */
  private questionKey(question: Asking, key: Keys.Key): boolean {
    const choices = question.alwaysRules.length > 0 ? ["once", "always", "deny"] : ["once", "deny"]
    const choose = (choice: string | undefined) => {
      if (choice === "once") this.answer({ _tag: "once" })
      else if (choice === "always") this.answer({ _tag: "always" })
      else if (choice === "deny") {
        question.noting = true
        this.savedPrompt = this.editor
        this.editor = LineEditor.empty(this.editor.history)
      }
    }
    if (question.noting) {
      if (key._tag === "escape") {
        question.noting = false
        this.restorePrompt()
        return true
      }
      if (key._tag === "enter") {
        const note = this.editor.text.trim()
        this.restorePrompt()
        this.answer({ _tag: "deny", note })
        return true
      }
      if (key._tag === "ctrlC") {
        this.restorePrompt()
        this.answer({ _tag: "deny", note: "" })
        this.options.host.interrupt()
        return true
      }
      this.editor = LineEditor.apply(this.editor, key).state
      return true
    }
    switch (key._tag) {
      case "char": {
        // One key pressed alone answers: text typed in a burst (a sentence meant for the prompt, a paste) never does.
        if ([...key.text].length !== 1) return true
        const letter = key.text.toLowerCase()
        choose(choices[Number.parseInt(letter, 10) - 1] ?? (letter === "y" ? "once" : letter === "n" ? "deny" : undefined))
        return true
      }
      case "up":
        question.selected = (question.selected + choices.length - 1) % choices.length
        return true
      case "down":
      case "tab":
        question.selected = (question.selected + 1) % choices.length
        return true
      case "enter":
        choose(choices[question.selected])
        return true
      case "escape":
        this.answer({ _tag: "deny", note: "" })
        return true
      case "ctrlC":
        this.answer({ _tag: "deny", note: "" })
        this.options.host.interrupt()
        return true
      default:
        return true
    }
  }

  /** A choice among `choices` (the answer: its index, or undefined for Esc / Ctrl-C); the prompt waits meanwhile. */
  choose(title: string, detail: ReadonlyArray<string>, choices: ReadonlyArray<string>, answer: (index: number | undefined) => void): void {
    this.menu = { title, detail, choices, answer, selected: 0 }
    this.draw()
  }

  private menuKey(menu: Menu, key: Keys.Key) {
    const done = (index: number | undefined) => {
      this.menu = undefined
      menu.answer(index)
    }
    switch (key._tag) {
      case "char": {
        // One key pressed alone answers, as at a permission question.
        const index = [...key.text].length === 1 ? Number.parseInt(key.text, 10) - 1 : -1
        if (index >= 0 && index < menu.choices.length) done(index)
        return
      }
      case "up":
        menu.selected = (menu.selected + menu.choices.length - 1) % menu.choices.length
        return
      case "down":
      case "tab":
        menu.selected = (menu.selected + 1) % menu.choices.length
        return
      case "enter":
        return done(menu.selected)
      case "escape":
      case "ctrlC":
        return done(undefined)
      default:
        return
    }
  }

  private restorePrompt() {
    if (this.savedPrompt !== undefined) this.editor = this.savedPrompt
    this.savedPrompt = undefined
  }

  private answer(answer: QuestionAnswer) {
    const question = this.question
    if (question === undefined) return
    this.question = undefined
    const verdict =
      answer._tag === "deny" ? `denied${answer.note === "" ? "" : `: ${answer.note}`}` : answer._tag === "always" ? `allowed always (${question.alwaysRules.join(", ")})` : "allowed once"
    this.finished.push([span("  ⎿  ", dim), span(verdict, answer._tag === "deny" ? { color: "red" } : dim)])
    question.answer(answer)
    this.requestFrame()
  }

  /** A permission question: shown until answered (or withdrawn when its turn is interrupted). */
  ask(question: Question, answer: (answer: QuestionAnswer) => void): void {
    this.flushText()
    this.question = { ...question, answer, selected: 0, noting: false }
    this.draw()
  }

  withdraw(toolUseId: string): void {
    if (this.question?.toolUseId !== toolUseId) return
    if (this.question.noting) this.restorePrompt()
    this.question = undefined
    this.requestFrame()
  }

  // ---- output

  /** Lines for the transcript (a slash command's answer, a notice). */
  print(text: string, style: Style = {}): void {
    for (const line of text.replace(/\n$/, "").split("\n")) this.finished.push([span(line, style)])
    this.requestFrame()
  }

  printLines(lines: ReadonlyArray<Line>): void {
    this.finished.push(...lines)
    this.requestFrame()
  }

  setMode(mode: string): void {
    this.mode = mode
    this.requestFrame()
  }

  clearScreen(): void {
    this.screen.clear()
    this.requestFrame()
  }

  private echoPrompt(text: string) {
    const lines = text.split("\n")
    lines.forEach((line, index) => this.finished.push([span(index === 0 ? "> " : "  ", { bold: true }), span(line, { bold: true })]))
    this.finished.push([])
  }

  /** Ends the text being streamed: its last line goes into the transcript. */
  endText(): void {
    this.flushText()
    this.streamedText = false
    this.requestFrame()
  }

  private flushText() {
    const thinking = Markdown.finish(this.thinking)
    this.thinking = Markdown.initial
    for (const line of thinking) this.finished.push(line.map((part) => span(part.text, { dim: true, italic: true })))
    const text = Markdown.finish(this.markdown)
    this.markdown = Markdown.initial
    this.finished.push(...text)
  }

  event(event: AgentEvent): void {
    switch (event._tag) {
      case "TurnStarted":
        this.busy = true
        this.turnStarted = this.options.now()
        this.outputTokens = 0
        this.streamedChars = 0
        this.compacting = event.kind === "compact"
        this.refreshStatus()
        this.startSpinner()
        break
      case "TurnEnded":
        this.flushText()
        this.progress = undefined
        this.busy = false
        this.compacting = false
        this.stopSpinner()
        break
      case "TextDelta": {
        this.streamedText = true
        this.streamedChars += event.text.length
        const fed = Markdown.feed(this.markdown, event.text)
        this.markdown = fed.state
        this.finished.push(...fed.lines)
        break
      }
      case "ThinkingDelta": {
        this.streamedChars += event.thinking.length
        const fed = Markdown.feed(this.thinking, event.thinking)
        this.thinking = fed.state
        for (const line of fed.lines) this.finished.push(line.map((part) => span(part.text, { dim: true, italic: true })))
        break
      }
      case "AssistantTurn": {
        // A message whose text did not stream (no deltas came): its text drawn whole.
        if (!this.streamedText) {
          for (const block of event.message.content) {
            if (Content.isText(block)) this.finished.push(...Markdown.feed(this.markdown, `${block.text}\n`).lines)
          }
        }
        this.streamedText = false
        this.flushText()
        this.outputTokens += event.message.usage.output_tokens
        this.streamedChars = 0
        // A blank line after the answer's text, before its tool calls or the next prompt.
        if (event.message.content.some((block) => Content.isText(block) && block.text.trim() !== "")) this.finished.push([])
        break
      }
      case "ToolStarted":
        this.flushText()
        this.inputs.set(event.toolUseId, event.input)
        this.finished.push([span("● ", { color: "green" }), span(describeCall(event.toolName, event.input, this.options.cwd), { bold: true })])
        break
      case "ToolProgress": {
        const lines = event.text.split("\n").filter((line) => line.trim() !== "")
        this.progress = lines[lines.length - 1] ?? this.progress
        break
      }
      case "ToolEnded": {
        this.progress = undefined
        const input = this.inputs.get(event.toolUseId)
        this.inputs.delete(event.toolUseId)
        this.finished.push(...resultLines(event.toolName, input, event.result, event.isError, event.patch), [])
        this.lastResult = { call: describeCall(event.toolName, input, this.options.cwd), text: Content.toolResultText(event.result.content) }
        break
      }
      case "Result":
        this.flushText()
        this.costUsd = event.totalCostUsd
        if (event.isError) this.finished.push([span(event.subtype === "error_during_execution" ? `⎿  ${event.result}` : `Error: ${event.result}`, { color: "red" })], [])
        break
      case "CompactionStarted":
        this.compacting = true
        break
      case "Compacted":
        this.compacting = false
        this.finished.push([span(`✻ Conversation compacted (${event.trigger}, ${tokens(event.preTokens)} tokens before)`, dim)], [])
        break
      case "PermissionModeChanged":
        this.mode = event.mode
        break
      case "ModelChanged":
        this.model = event.model
        break
      case "SessionStarted":
        this.model = event.model
        break
      case "ApiRetry":
        this.finished.push([span(`⚠ ${oneLine(event.message, 200)}; retry ${event.attempt}/${event.maxRetries}`, { color: "yellow" })])
        break
      case "HookNotice":
        this.finished.push([span(`${event.hookEvent} hook: ${event.text}`, { color: "yellow" })])
        break
      case "TodosUpdated":
        for (const todo of event.todos) {
          this.finished.push([span(`  ${todo.status === "completed" ? "☒" : "☐"} ${todo.content}`, todo.status === "completed" ? dim : {})])
        }
        break
      default:
        return
    }
    this.requestFrame()
  }

  // ---- frames

  /** Draws soon: at once when the last frame is older than the cap, else when the cap allows. */
  requestFrame(): void {
    if (this.closed || this.frameTimer !== undefined) return
    const wait = this.lastFrame + frameMs - this.options.now()
    if (wait <= 0) return this.draw()
    this.frameTimer = this.options.timers.schedule(() => {
      this.frameTimer = undefined
      this.draw()
    }, wait)
  }

  private startSpinner() {
    if (this.spinnerTimer !== undefined) return
    const tick = () => {
      this.spinnerTimer = this.options.timers.schedule(() => {
        this.spinnerTimer = undefined
        if (!this.busy || this.closed) return
        this.refreshStatus()
        this.requestFrame()
        tick()
      }, spinnerMs)
    }
    tick()
  }

  private refreshStatus() {
    this.shown = {
      elapsed: Math.max(0, this.options.now() - this.turnStarted),
      tokens: this.outputTokens + Math.round(this.streamedChars / 4)
    }
  }

  private stopSpinner() {
    this.spinnerTimer?.()
    this.spinnerTimer = undefined
  }

  /** Whether any timer is set (none at an idle prompt). */
  get timersActive(): boolean {
    return this.spinnerTimer !== undefined || this.frameTimer !== undefined
  }

  get isBusy(): boolean {
    return this.busy
  }

  get promptText(): string {
    return this.editor.text
  }

  draw(): void {
    if (this.closed) return
    this.frameTimer?.()
    this.frameTimer = undefined
    this.lastFrame = this.options.now()
    const width = this.screen.columns
    const color = this.options.color
    const redact = this.options.redact
    const clean = (line: Line): Line => (redact === undefined ? line : line.map((part) => span(redact(part.text), part.style)))
    const commit = this.finished.flatMap((line) => wrap(clean(line), width, 0).map((row) => toAnsi(row, color)))
    this.finished = []
    const live: Array<string> = []
    const add = (line: Line, indent = 0) => {
      for (const row of wrap(clean(line), width, indent)) live.push(toAnsi(row, color))
    }
    const thinking = Markdown.partialLine(this.thinking)
    if (thinking !== undefined) add(thinking.map((part) => span(part.text, { dim: true, italic: true })))
    const partial = Markdown.partialLine(this.markdown)
    if (partial !== undefined) add(partial)
    // While a turn runs the streaming line keeps its row, empty or not: the rows below it do not move. A running
    // tool's last line of output shows there, cut to the width.
    else if (this.busy && thinking === undefined) {
      const progress = this.progress === undefined ? undefined : wrap([span(`  ⎿  ${this.progress}`, dim)], width)[0]
      live.push(progress === undefined ? "" : toAnsi(clean(progress), color))
    }
    if (this.question !== undefined) this.questionRows(this.question, add)
    if (this.menu !== undefined) {
      const menu = this.menu
      add([span(menu.title, { bold: true, color: "yellow" })])
      for (const line of menu.detail) add([span(line, dim)], 2)
      menu.choices.forEach((choice, index) => {
        const selected = index === menu.selected
        add([span(selected ? "❯ " : "  ", { color: "cyan" }), span(`${index + 1}. ${choice}`, selected ? { color: "cyan" } : {})], 5)
      })
    }
    // A blank row between what is live above and the prompt (cheaper to redraw than a rule across the width).
    if (live.length > 0) live.push("")
    const prompt = this.promptRows(width)
    // A long prompt shows the rows around the cursor: the live region stays within the screen, where relative
    // cursor moves reach every row of it.
    const first = Math.max(0, Math.min(prompt.cursor.row - Math.floor(maxPromptRows / 2), prompt.rows.length - maxPromptRows))
    const shownRows = prompt.rows.slice(first, first + maxPromptRows)
    if (first > 0) live.push(toAnsi([span(`  ↑ ${first} more lines`, dim)], color))
    const cursorRow = live.length + prompt.cursor.row - first
    for (const row of shownRows) live.push(toAnsi(row, color))
    const below = prompt.rows.length - first - shownRows.length
    if (below > 0) live.push(toAnsi([span(`  ↓ ${below} more lines`, dim)], color))
    if (this.completions.length > 0) add([span(`  ${this.completions.join("  ")}`, dim)], 2)
    add(this.statusLine(), 2)
    this.screen.draw({ commit, live, cursor: { row: cursorRow, column: prompt.cursor.column } })
  }

  private questionRows(question: Asking, add: (line: Line, indent?: number) => void) {
    add([span(`Allow ${describeCall(question.toolName, question.input, this.options.cwd)}?`, { bold: true, color: "yellow" })])
    if (question.reason !== "") add([span(question.reason, dim)], 2)
    const choices =
      question.alwaysRules.length > 0
        ? ["Yes", `Yes, and don't ask again for ${question.alwaysRules.join(", ")} in this project`, "No, and tell the model what to do instead"]
        : ["Yes", "No, and tell the model what to do instead"]
    choices.forEach((choice, index) => {
      const selected = index === question.selected
      add([span(selected ? "❯ " : "  ", { color: "cyan" }), span(`${index + 1}. ${choice}`, selected ? { color: "cyan" } : {})], 5)
    })
    if (question.noting) add([span("Type what the model should do instead, then Enter (Esc: back)", dim)])
  }

  /** The prompt's rows (hard-wrapped at the width) and the cursor's place in them. */
  private promptRows(width: number): { readonly rows: ReadonlyArray<Line>; readonly cursor: { readonly row: number; readonly column: number } } {
    const noting = this.question?.noting === true
    const rows: Array<Line> = []
    let cursor = { row: 0, column: 0 }
    const at = this.editor.cursor
    let offset = 0
    this.editor.text.split("\n").forEach((lineText, lineIndex) => {
      let prefix = lineIndex === 0 ? (noting ? "note> " : "> ") : "  "
      const prefixStyle: Style = lineIndex === 0 ? { color: "cyan", bold: true } : dim
      let current = ""
      let column = textWidth(prefix)
      const push = () => {
        rows.push(prefix === "" ? [span(current)] : [span(prefix, prefixStyle), span(current)])
        prefix = ""
        current = ""
        column = 0
      }
      let index = 0
      for (const char of lineText) {
        const charColumns = charWidth(char.codePointAt(0) ?? 0)
        if (column + charColumns > width) push()
        if (offset + index === at) cursor = { row: rows.length, column }
        current += sanitize(char)
        column += charColumns
        index += char.length
      }
      if (offset + lineText.length === at) {
        if (column >= width) push()
        cursor = { row: rows.length, column }
      }
      push()
      offset += lineText.length + 1
    })
    return { rows, cursor }
  }

  private statusLine(): Line {
    if (this.notice !== undefined) return [span(this.notice, dim)]
    if (this.busy) {
      const { elapsed, tokens: count } = this.shown
      const frame = spinnerFrames[Math.floor(elapsed / spinnerMs) % spinnerFrames.length] ?? "·"
      const what = this.compacting ? "Compacting…" : this.question !== undefined ? "Waiting for your answer…" : "Working…"
      return [
        span(`${frame} `, { color: "magenta" }),
        span(what, { color: "magenta" }),
        span(` (${Math.floor(elapsed / 1000)}s · ↓ ${tokens(count)} tokens · $${this.costUsd.toFixed(4)} · esc to interrupt)`, dim)
      ]
    }
    const mode =
      this.mode === "acceptEdits" ? "⏵⏵ accept edits on" : this.mode === "plan" ? "⏸ plan mode on" : this.mode === "bypassPermissions" ? "⏵⏵ bypass permissions on" : "default mode"
    return [span(`${mode} (shift+tab to cycle) · ${this.model}${this.costUsd > 0 ? ` · $${this.costUsd.toFixed(4)}` : ""} · /help`, dim)]
  }

  /** The session was replaced (/clear, /resume): nothing of its turn is in flight any more. */
  reset(): void {
    this.flushText()
    this.busy = false
    this.compacting = false
    this.question = undefined
    this.inputs.clear()
    this.stopSpinner()
    this.requestFrame()
  }

  /** Stops timers and leaves the cursor below the live region. */
  close(): void {
    if (this.closed) return
    this.draw()
    this.closed = true
    this.stopSpinner()
    this.frameTimer?.()
    this.frameTimer = undefined
    this.screen.release()
  }
}
