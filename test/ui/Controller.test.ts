import { describe, expect, it } from "vitest"
import type { AgentEvent, Result } from "../../src/domain/AgentEvent.js"
import type { ContentBlock } from "../../src/domain/Content.js"
import * as UsageTotals from "../../src/domain/UsageTotals.js"
import { Controller, type QuestionAnswer } from "../../src/ui/Controller.js"
import { structuredPatch } from "../../src/tools/StructuredPatch.js"
import { FakeTerminal, FakeTimers } from "../support/FakeTerminal.js"

const assistant = (content: ReadonlyArray<ContentBlock>, outputTokens = 0): AgentEvent => ({
  _tag: "AssistantTurn",
  uuid: "u",
  message: {
    id: "m",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [...content],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { ...UsageTotals.zero, output_tokens: outputTokens }
  }
})

const result = (overrides: Partial<Result> = {}): AgentEvent => ({
  _tag: "Result",
  subtype: "success",
  isError: false,
  result: "",
  numTurns: 1,
  durationMs: 1,
  durationApiMs: 1,
  totalCostUsd: 0.0123,
  usage: UsageTotals.zero,
  modelUsage: {},
  sessionId: "s",
  permissionDenials: [],
  ...overrides
})

const setup = (options: { columns?: number; color?: boolean; files?: ReadonlyArray<string>; redact?: (text: string) => string } = {}) => {
  const terminal = new FakeTerminal(options.columns ?? 80, 24)
  const clock = new FakeTimers()
  const calls: Array<string> = []
  const controller = new Controller({
    sink: terminal.sink,
    color: options.color ?? true,
    now: () => clock.now,
    timers: clock.timers,
    cwd: "/project",
    model: "claude-test",
    ...(options.redact === undefined ? {} : { redact: options.redact }),
    host: {
      submit: (text) => calls.push(`submit:${text}`),
      interrupt: () => calls.push("interrupt"),
      cycleMode: () => calls.push("cycleMode"),
      exit: () => calls.push("exit"),
      complete: (partial) => (options.files ?? []).filter((file) => file.startsWith(partial))
    }
  })
  controller.draw()
  return { terminal, clock, calls, controller }
}

/** A streamed answer of `count` words, a few to a line, as TextDelta events (one word a token). */
const words = (count: number) => Array.from({ length: count }, (_, index) => (index % 8 === 7 ? `word${index}\n` : `word${index} `))

describe("Controller: the transcript", () => {
  it("streams an answer: each finished line is written once and stays in the scrollback; the prompt and status stay below", () => {
    const { terminal, clock, controller } = setup()
    controller.event({ _tag: "TurnStarted", turnId: 1, kind: "prompt" })
    const tokens = words(600)
    for (const token of tokens) {
      controller.event({ _tag: "TextDelta", index: 0, text: token })
      clock.advance(2)
    }
    controller.event(assistant([{ type: "text", text: tokens.join("") }], 600))
    controller.event(result())
    controller.event({ _tag: "TurnEnded", turnId: 1, interrupted: false })
    clock.advance(100)
    const lines = tokens.join("").trimEnd().split("\n").map((line) => line.trimEnd())
    const shown = terminal.all
    const first = shown.indexOf(lines[0] ?? "")
    expect(first).toBeGreaterThanOrEqual(0)
    expect(shown.slice(first, first + lines.length)).toEqual(lines)
    expect(terminal.visible.at(-2)).toBe(">")
    expect(terminal.visible.at(-1)).toContain("default mode")
    expect(terminal.autoWraps).toBe(0)
    for (const line of lines) expect(shown.filter((row) => row === line)).toHaveLength(1)
    // Bytes per token: near the token's own size plus a small constant. Writing the finished text a second time
    // (a repaint) would be twice the text at least.
    const textBytes = tokens.join("").length
    expect(terminal.bytes.length / textBytes).toBeLessThan(1.8)
  })

  it("an answer that did not stream is drawn whole from its message", () => {
    const { terminal, clock, controller } = setup()
    controller.event(assistant([{ type: "text", text: "Not streamed.\n\n- a point" }]))
    clock.advance(50)
    expect(terminal.all).toContain("Not streamed.")
    expect(terminal.all).toContain("  • a point")
  })

  it("a tool call is one line and a few lines of its result; an edit shows as a diff", () => {
    const { terminal, clock, controller } = setup()
    controller.event({ _tag: "TurnStarted", turnId: 1, kind: "prompt" })
    controller.event({ _tag: "ToolStarted", toolUseId: "t1", toolName: "Read", input: { file_path: "/project/src/a.ts" } })
    const content = Array.from({ length: 10 }, (_, index) => `line ${index}`).join("\n")
    controller.event({ _tag: "ToolEnded", toolUseId: "t1", toolName: "Read", isError: false, result: { type: "tool_result", tool_use_id: "t1", content } })
    controller.event({ _tag: "ToolStarted", toolUseId: "t2", toolName: "Edit", input: { file_path: "/project/src/a.ts", old_string: "let a = 1", new_string: "const a = 1" } })
    controller.event({ _tag: "ToolEnded", toolUseId: "t2", toolName: "Edit", isError: false, result: { type: "tool_result", tool_use_id: "t2", content: "ok" } })
    clock.advance(50)
    const shown = terminal.all.join("\n")
    expect(shown).toContain("● Read(src/a.ts)\n  ⎿  line 0\n     line 1\n     line 2\n     line 3\n     … +6 lines")
    expect(shown).toContain("● Edit(src/a.ts)\n  ⎿  - let a = 1\n     + const a = 1")
  })

  it("an Edit's or Write's diff is drawn from the tool's structured patch, with line numbers, hunks apart", () => {
    const { terminal, clock, controller } = setup()
    const before = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`)
    const after = before.map((line, index) => (index === 11 ? "changed 12" : index === 24 ? "changed 25" : line))
    const patch = structuredPatch(`${before.join("\n")}\n`, `${after.join("\n")}\n`)
    controller.event({ _tag: "TurnStarted", turnId: 1, kind: "prompt" })
    controller.event({ _tag: "ToolStarted", toolUseId: "t1", toolName: "Edit", input: { file_path: "/project/a.txt", old_string: "x", new_string: "y" } })
    controller.event({ _tag: "ToolEnded", toolUseId: "t1", toolName: "Edit", isError: false, result: { type: "tool_result", tool_use_id: "t1", content: "ok" }, patch })
    controller.event({ _tag: "ToolStarted", toolUseId: "t2", toolName: "Write", input: { file_path: "/project/new.txt", content: "first\nsecond\n" } })
    controller.event({ _tag: "ToolEnded", toolUseId: "t2", toolName: "Write", isError: false, result: { type: "tool_result", tool_use_id: "t2", content: "ok" }, patch: [] })
    clock.advance(50)
    const shown = terminal.all.join("\n")
    expect(shown).toContain(
      [
        "● Edit(a.txt)",
        "  ⎿   9   line 9",
        "     10   line 10",
        "     11   line 11",
        "     12 - line 12",
        "     12 + changed 12",
        "     13   line 13",
        "     14   line 14",
        "     15   line 15",
        "          ⋮",
        "     22   line 22",
        "     23   line 23",
        "     24   line 24",
        "     25 - line 25",
        "     … +4 lines"
      ].join("\n")
    )
    expect(shown).toContain("● Write(new.txt)\n  ⎿  1 + first\n     2 + second")
  })

  it("a running tool's last line of output shows on the streaming row until it ends", () => {
    const { terminal, clock, controller } = setup()
    controller.event({ _tag: "TurnStarted", turnId: 1, kind: "prompt" })
    controller.event({ _tag: "ToolStarted", toolUseId: "t1", toolName: "Bash", input: { command: "make" } })
    controller.event({ _tag: "ToolProgress", toolUseId: "t1", toolName: "Bash", text: "compiling a.c\ncompiling b.c\n" })
    clock.advance(50)
    expect(terminal.visible).toContain("  ⎿  compiling b.c")
    controller.event({ _tag: "ToolEnded", toolUseId: "t1", toolName: "Bash", isError: false, result: { type: "tool_result", tool_use_id: "t1", content: "done" } })
    clock.advance(50)
    expect(terminal.visible).not.toContain("  ⎿  compiling b.c")
    expect(terminal.visible).toContain("  ⎿  done")
  })

  it("code fences are set apart, lists bulleted, emphasis styled (no markers left)", () => {
    const { terminal, clock, controller } = setup()
    controller.event({ _tag: "TextDelta", index: 0, text: "Some **bold** and `code`:\n\n- item\n\n```ts\nconst x = 1\n```\n" })
    clock.advance(50)
    const shown = terminal.all.join("\n")
    expect(shown).toContain("Some bold and code:")
    expect(shown).toContain("  • item")
    expect(shown).toContain("  ╭─ ts\n  │ const x = 1\n  ╰─")
    expect(terminal.bytes).toContain("\x1b[1mbold\x1b[0m")
  })

  it("NO_COLOR: no colour codes at all, attributes only", () => {
    const colored = setup({ color: true })
    const plain = setup({ color: false })
    for (const { controller, clock } of [colored, plain]) {
      controller.event({ _tag: "ToolStarted", toolUseId: "t2", toolName: "Edit", input: { old_string: "a", new_string: "b" } })
      controller.event({ _tag: "ToolEnded", toolUseId: "t2", toolName: "Edit", isError: false, result: { type: "tool_result", tool_use_id: "t2", content: "ok" } })
      clock.advance(50)
    }
    const colors = /\x1b\[[0-9;]*(3[0-7]|9[0-7])m/
    expect(colored.terminal.bytes).toMatch(colors)
    expect(plain.terminal.bytes).not.toMatch(colors)
    expect(plain.terminal.all.join("\n")).toContain("- a\n     + b")
  })

  it("in 40 columns long lines wrap at words and no row ever overflows", () => {
    const { terminal, clock, controller } = setup({ columns: 40 })
    controller.event({ _tag: "TextDelta", index: 0, text: `${"lorem ipsum dolor sit amet ".repeat(10)}\n` })
    controller.input("x".repeat(100))
    clock.advance(50)
    expect(terminal.autoWraps).toBe(0)
    expect(terminal.all.every((line) => line.length <= 40)).toBe(true)
    expect(terminal.all).toContain("lorem ipsum dolor sit amet lorem ipsum")
  })

  it("a resize redraws the live region only: finished lines are not written again", () => {
    const { terminal, clock, controller } = setup()
    controller.event({ _tag: "TextDelta", index: 0, text: "finished line one\nfinished line two\n" })
    clock.advance(50)
    const before = terminal.bytes.length
    // Wider: every row of the live region still takes one row (narrower, the terminal's reflow decides: see docs/terminal.md).
    terminal.columns = 100
    controller.screen.resize()
    controller.draw()
    const after = terminal.bytes.slice(before)
    expect(after).not.toContain("finished line")
    expect(after).toContain("default mode")
    expect(terminal.visible.slice(0, 2)).toEqual(["finished line one", "finished line two"])
  })
})

describe("Controller: credentials", () => {
  it("what is drawn is redacted: finished lines, the streaming line, tool results", () => {
    const { terminal, clock, controller } = setup({ redact: (text) => text.replaceAll("sk-ant-secret", "[redacted]") })
    controller.event({ _tag: "TextDelta", index: 0, text: "the key is sk-ant-secret\nand again sk-ant-secret" })
    controller.event({ _tag: "ToolStarted", toolUseId: "t1", toolName: "Bash", input: { command: "echo sk-ant-secret" } })
    controller.event({ _tag: "ToolEnded", toolUseId: "t1", toolName: "Bash", isError: false, result: { type: "tool_result", tool_use_id: "t1", content: "sk-ant-secret" } })
    clock.advance(50)
    expect(terminal.bytes).not.toContain("sk-ant-secret")
    expect(terminal.all).toContain("the key is [redacted]")
  })
})

describe("Controller: timers", () => {
  it("no timer at all at an idle prompt; the spinner ticks at most every 100 ms while a turn runs, and stops with it", () => {
    const { terminal, clock, controller } = setup()
    expect(controller.timersActive).toBe(false)
    controller.event({ _tag: "TurnStarted", turnId: 1, kind: "prompt" })
    expect(controller.timersActive).toBe(true)
    clock.advance(50)
    const frames = controller.screen.stats.frames
    clock.advance(1000)
    const ticks = controller.screen.stats.frames - frames
    expect(ticks).toBeGreaterThan(5)
    expect(ticks).toBeLessThanOrEqual(10)
    controller.event({ _tag: "TurnEnded", turnId: 1, interrupted: false })
    clock.advance(20)
    expect(controller.timersActive).toBe(false)
    const idle = terminal.bytes.length
    clock.advance(10_000)
    expect(terminal.bytes.length).toBe(idle)
  })
})

describe("Controller: reset", () => {
  it("a replaced session (/clear, /resume) leaves no turn, question or timer behind", () => {
    const { terminal, clock, controller } = setup()
    controller.event({ _tag: "TurnStarted", turnId: 1, kind: "prompt" })
    controller.ask({ toolUseId: "t1", toolName: "Bash", input: { command: "ls" }, reason: "", alwaysRules: [] }, () => undefined)
    controller.reset()
    clock.advance(50)
    expect(controller.isBusy).toBe(false)
    expect(controller.timersActive).toBe(false)
    expect(terminal.visible.join("\n")).not.toContain("Allow Bash")
    expect(terminal.visible.at(-1)).toContain("default mode")
  })
})

describe("Controller: keys", () => {
  it("Enter sends the prompt, echoed into the transcript; Shift+Tab asks for the next mode", () => {
    const { terminal, calls, controller } = setup()
    controller.input("hello there\r\x1b[Z")
    expect(calls).toEqual(["submit:hello there", "cycleMode"])
    expect(terminal.all).toContain("> hello there")
    expect(controller.promptText).toBe("")
  })

  it("Esc and Ctrl-C interrupt a running turn and keep what was typed; idle, Ctrl-C clears, then twice exits; Ctrl-D exits", () => {
    const { calls, controller } = setup()
    controller.event({ _tag: "TurnStarted", turnId: 1, kind: "prompt" })
    controller.input("next question")
    controller.input("\x1b")
    controller.input("\x03")
    expect(calls).toEqual(["interrupt", "interrupt"])
    expect(controller.promptText).toBe("next question")
    controller.event({ _tag: "TurnEnded", turnId: 1, interrupted: true })
    controller.input("\x03")
    expect(controller.promptText).toBe("")
    controller.input("\x03")
    expect(calls).toEqual(["interrupt", "interrupt"])
    controller.input("\x03")
    expect(calls.at(-1)).toBe("exit")
    const second = setup()
    second.controller.input("\x04")
    expect(second.calls).toEqual(["exit"])
  })

  it("a large paste is drawn in one frame, as a placeholder; sent whole", () => {
    const { terminal, controller, calls } = setup()
    const frames = controller.screen.stats.frames
    const bytes = terminal.bytes.length
    controller.input(`\x1b[200~${"y\n".repeat(100_000)}\x1b[201~`)
    expect(controller.screen.stats.frames - frames).toBe(1)
    expect(terminal.bytes.length - bytes).toBeLessThan(200)
    expect(terminal.visible).toContain("> [Pasted text #1 +100001 lines]")
    controller.input("\r")
    expect(calls).toEqual([`submit:${"y\n".repeat(100_000)}`])
  })

  it("Tab completes an @path as far as it is unique, and shows the choices left", () => {
    const { terminal, controller } = setup({ files: ["src/", "src/agent/", "src/ui/", "README.md"] })
    controller.input("look at @sr\t")
    expect(controller.promptText).toBe("look at @src/")
    controller.input("\t")
    expect(terminal.visible.join("\n")).toContain("src/agent/  src/ui/")
    controller.input("u\t")
    expect(controller.promptText).toBe("look at @src/ui/")
    expect(terminal.visible.join("\n")).not.toContain("src/agent/")
  })

  it("Ctrl+O shows the last tool result whole", () => {
    const { terminal, clock, controller } = setup()
    const content = Array.from({ length: 10 }, (_, index) => `line ${index}`).join("\n")
    controller.event({ _tag: "ToolStarted", toolUseId: "t1", toolName: "Bash", input: { command: "seq" } })
    controller.event({ _tag: "ToolEnded", toolUseId: "t1", toolName: "Bash", isError: false, result: { type: "tool_result", tool_use_id: "t1", content } })
    clock.advance(50)
    expect(terminal.all).not.toContain("  line 9")
    controller.input("\x0f")
    expect(terminal.all).toContain("  line 9")
  })

  it("a long typed prompt shows the rows around the cursor", () => {
    const { terminal, controller } = setup()
    controller.input(Array.from({ length: 30 }, (_, index) => `row ${index}`).join("\x1b\r"))
    expect(terminal.visible).toContain("  row 29")
    expect(terminal.visible).toContain("  ↑ 22 more lines")
    expect(terminal.visible.length).toBeLessThan(14)
  })
})

describe("Controller: permission questions", () => {
  const ask = (alwaysRules: ReadonlyArray<string> = ["Bash(touch x)"], typed = "") => {
    const context = setup()
    context.controller.input(typed)
    const answers: Array<QuestionAnswer> = []
    context.controller.ask({ toolUseId: "t1", toolName: "Bash", input: { command: "touch x" }, reason: "Bash asks.", alwaysRules }, (answer) => answers.push(answer))
    return { ...context, answers }
  }

  it("shows the call and its choices; 1 allows once, 2 always", () => {
    const once = ask()
    expect(once.terminal.visible.join("\n")).toContain("Allow Bash(touch x)?")
    expect(once.terminal.visible.join("\n")).toContain("2. Yes, and don't ask again for Bash(touch x) in this project")
    once.controller.input("1")
    expect(once.answers).toEqual([{ _tag: "once" }])
    const always = ask()
    always.controller.input("\x1b[B\r")
    expect(always.answers).toEqual([{ _tag: "always" }])
    expect(always.terminal.visible.join("\n")).not.toContain("Allow Bash")
  })

  it("3 asks for a note for the model, sent with Enter; what was typed at the prompt comes back", () => {
    const { controller, answers } = ask(["Bash(touch x)"], "half typed")
    // Typed in a burst while the question is open: not an answer (this one has "a" and "y" in it).
    controller.input("yet another way")
    expect(answers).toEqual([])
    controller.input("3")
    controller.input("use mkdir instead\r")
    expect(answers).toEqual([{ _tag: "deny", note: "use mkdir instead" }])
    expect(controller.promptText).toBe("half typed")
  })

  it("without suggested rules there is no 'always'; Esc denies", () => {
    const { terminal, controller, answers } = ask([])
    expect(terminal.visible.join("\n")).not.toContain("don't ask again")
    controller.input("\x1b")
    expect(answers).toEqual([{ _tag: "deny", note: "" }])
  })

  it("a withdrawn question (its turn interrupted) goes away", () => {
    const { terminal, controller, answers } = ask()
    controller.withdraw("t1")
    controller.draw()
    expect(terminal.visible.join("\n")).not.toContain("Allow Bash")
    expect(answers).toEqual([])
  })
})

describe("Controller: a choice before the session", () => {
  it("shows the choices; a number or Enter picks, Esc answers none; the prompt's keys are not typed meanwhile", () => {
    const { terminal, controller } = setup()
    const answers: Array<number | undefined> = []
    controller.choose("Trust /project?", ["Its settings ask for env."], ["Yes", "No"], (index) => answers.push(index))
    expect(terminal.visible.join("\n")).toContain("Trust /project?\nIts settings ask for env.\n❯ 1. Yes\n  2. No")
    controller.input("x21")
    expect(answers).toEqual([])
    controller.input("2")
    expect(answers).toEqual([1])
    expect(controller.promptText).toBe("")
    controller.choose("Again?", [], ["Yes", "No"], (index) => answers.push(index))
    controller.input("\x1b[B\x1b[A\r")
    controller.choose("Again?", [], ["Yes", "No"], (index) => answers.push(index))
    controller.input("\x1b")
    expect(answers).toEqual([1, 0, undefined])
  })
})
