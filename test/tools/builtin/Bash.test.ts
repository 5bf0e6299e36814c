import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { BashOutputTool, BashTool, KillShellTool, sandboxedBashTool } from "../../../src/tools/builtin/Bash.js"
import { ChildEnvironment } from "../../../src/platform/ChildEnvironment.js"
import { ShellSession } from "../../../src/tools/ShellSession.js"
import { groupAlive, isRunning, sleepLive } from "../../../src/tools/shell/ProcessGroup.js"
import { jsonSchemaOf } from "../../../src/tools/Tool.js"
import { sandboxForSuites, suiteShell } from "../../sandbox/support.js"
import { makeTree, propertyNames, removeTree, runTool, textOf } from "./support.js"

const roots: Array<string> = []
afterEach(() => {
  for (const root of roots.splice(0)) removeTree(root)
})

const tree = (files: Record<string, string> = {}) => {
  const root = makeTree(files)
  roots.push(root)
  return root
}

/** A short grace period keeps the TERM-ignoring tests quick. With WEFT_TEST_SANDBOX=1, in the OS sandbox. */
const session = (cwd: string) => suiteShell(cwd, 300)

/** Waits on a real condition (a file written by the command, output arriving), never on a fixed delay. */
const waitFor = (what: string, condition: () => boolean) =>
  Effect.gen(function* () {
    for (let waited = 0; waited < 15_000; waited += 10) {
      if (condition()) return
      yield* sleepLive(10)
    }
    return yield* Effect.die(new Error(`timed out waiting for ${what}`))
  })

const pidsIn = (file: string): Array<number> =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map(Number)
    : []

const bash = (input: Record<string, unknown>, cwd: string) => runTool(BashTool, input, cwd)

/**
 * Tests that check on the host the pids a command records: inside the sandbox `$$` is a pid of its own namespace,
 * so they run without it (test/sandbox/Sandbox.test.ts checks the same endings by command line, sandboxed).
 */
const hostPids = it.live.skipIf(sandboxForSuites)

describe("Bash", () => {
  it("has Claude Code's input fields", () => {
    const schema = jsonSchemaOf(BashTool.input)
    expect(propertyNames(schema)).toEqual(["command", "timeout", "description", "run_in_background"])
    expect(schema["required"]).toEqual(["command"])
    expect(propertyNames(jsonSchemaOf(BashOutputTool.input))).toEqual(["bash_id", "filter"])
    expect(propertyNames(jsonSchemaOf(KillShellTool.input))).toEqual(["shell_id"])
    // With the sandbox on, the model may ask to leave it (a permission question).
    expect(propertyNames(jsonSchemaOf(sandboxedBashTool().input))).toEqual([
      "command",
      "timeout",
      "description",
      "run_in_background",
      "dangerouslyDisableSandbox"
    ])
  })

  it.live("runs a command; stdout and stderr interleaved; progress emitted", () => {
    const root = tree()
    return Effect.gen(function* () {
      const { progress, result } = yield* bash({ command: "echo one; echo two >&2; echo three" }, root)
      expect(textOf(result)).toBe("one\ntwo\nthree")
      expect(result.isError).toBeUndefined()
      expect(progress.join("")).toContain("one")
      const empty = yield* bash({ command: "true" }, root)
      expect(textOf(empty.result)).toBe("(No output)")
    }).pipe(Effect.provide(session(root)))
  })

  it.live("a non-zero exit is an is_error result with the output and 'Exit code N'", () => {
    const root = tree()
    return Effect.gen(function* () {
      const { result } = yield* bash({ command: "echo oops >&2; exit 3" }, root)
      expect(textOf(result)).toBe("oops\nExit code 3")
      expect(result.isError).toBe(true)
      expect(result.data).toMatchObject({ exitCode: 3, timedOut: false })
      const syntax = yield* bash({ command: "if then" }, root)
      expect(syntax.result.isError).toBe(true)
      expect(textOf(syntax.result)).toMatch(/syntax error[\s\S]*Exit code 2$/)
    }).pipe(Effect.provide(session(root)))
  })

  it.live("the working directory persists across calls, unless it no longer exists", () => {
    const root = tree({ "sub/dir/file.txt": "x" })
    return Effect.gen(function* () {
      yield* bash({ command: "cd sub/dir" }, root)
      expect(textOf((yield* bash({ command: "pwd; ls" }, root)).result)).toBe(`${root}/sub/dir\nfile.txt`)
      // A failing command still moves the directory, as in a terminal.
      yield* bash({ command: "cd .. && false" }, root)
      expect(textOf((yield* bash({ command: "pwd" }, root)).result)).toBe(`${root}/sub`)
      // Ending in a directory that is then removed keeps the previous one.
      yield* bash({ command: "mkdir gone && cd gone && rmdir \"$PWD\"" }, root)
      expect(textOf((yield* bash({ command: "pwd" }, root)).result)).toBe(`${root}/sub`)
      // `exit` keeps the directory too (the EXIT trap records it).
      yield* bash({ command: "cd dir; exit 0" }, root)
      expect(yield* Effect.flatMap(ShellSession, (shell) => shell.cwd)).toBe(`${root}/sub/dir`)
      // So does a command that sets an EXIT trap of its own, which still runs, and the exit status is the command's.
      const trapped = yield* bash({ command: "cd ..; trap 'echo bye' EXIT; false" }, root)
      expect(textOf(trapped.result)).toBe("bye\nExit code 1")
      expect(yield* Effect.flatMap(ShellSession, (shell) => shell.cwd)).toBe(`${root}/sub`)
    }).pipe(Effect.provide(session(root)))
  })

  it.live("a working directory removed by a command: no error noise, and the next command says where it runs", () => {
    const root = tree({ "sub/file.txt": "x" })
    return Effect.gen(function* () {
      yield* bash({ command: "cd sub" }, root)
      const removing = yield* bash({ command: 'rm -rf "$PWD"; echo removed' }, root)
      expect(textOf(removing.result)).toBe("removed")
      const next = yield* bash({ command: "pwd" }, root)
      expect(textOf(next.result)).toBe(`(The working directory ${root}/sub no longer exists; this command ran in ${root}.)\n${root}`)
      expect(yield* Effect.flatMap(ShellSession, (shell) => shell.cwd)).toBe(root)
    }).pipe(Effect.provide(session(root)))
  })

  it.live("output over 30000 characters keeps head and tail and says how much was cut", () => {
    const root = tree()
    return Effect.gen(function* () {
      const { result } = yield* bash(
        { command: "printf 'START'; head -c 100000 /dev/zero | tr '\\0' x; printf 'END'" },
        root
      )
      const text = textOf(result)
      expect(text.startsWith("STARTxxx")).toBe(true)
      expect(text.endsWith("xxxEND")).toBe(true)
      expect(/\.\.\. \[(\d+) characters truncated\] \.\.\./.exec(text)?.[1]).toBe("70008")
      expect(text.length).toBeLessThan(30_100)
    }).pipe(Effect.provide(session(root)))
  })

  hostPids("a timeout ends the process group and says so, with the output so far", () => {
    const root = tree()
    return Effect.gen(function* () {
      const { result } = yield* bash({ command: "echo started; echo $$ > pid; sleep 1000", timeout: 500 }, root)
      expect(textOf(result)).toBe("started\nCommand timed out after 500ms")
      expect(result.isError).toBe(true)
      expect(result.data).toMatchObject({ timedOut: true })
      for (const pid of pidsIn(nodePath.join(root, "pid"))) expect(isRunning(pid)).toBe(false)
      const invalid = yield* Effect.exit(bash({ command: "echo", timeout: 0 }, root))
      expect(Exit.isFailure(invalid)).toBe(true)
    }).pipe(Effect.provide(session(root)))
  })

  hostPids("interrupting the call kills the whole tree, including a child that ignores SIGTERM", () => {
    const root = tree()
    const pids = nodePath.join(root, "pids")
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(
        bash(
          {
            command: `echo $$ > pids; bash -c 'sleep 1000 & echo $! >> "$0"; trap "" TERM; echo $$ >> "$0"; sleep 1000' "$PWD/pids"`
          },
          root
        )
      )
      yield* waitFor("the process tree to start", () => pidsIn(pids).length === 3)
      const recorded = pidsIn(pids)
      expect(recorded.every(isRunning)).toBe(true)
      yield* Fiber.interrupt(fiber)
      for (const pid of recorded) expect(isRunning(pid), `pid ${pid} still running`).toBe(false)
      // The command's own group is gone too (the shell's pid is the group id; a zombie awaiting reaping is not alive).
      expect(groupAlive(recorded[0] ?? 0)).toBe(false)
    }).pipe(Effect.provide(session(root)))
  })

  hostPids("processes a foreground command leaves behind end when it exits", () => {
    const root = tree()
    return Effect.gen(function* () {
      const { result } = yield* bash({ command: "sleep 1000 & echo $! > pid; echo left" }, root)
      expect(textOf(result)).toBe("left")
      const [pid] = pidsIn(nodePath.join(root, "pid"))
      expect(pid).toBeDefined()
      expect(isRunning(pid ?? 0)).toBe(false)
    }).pipe(Effect.provide(session(root)))
  })
})

describe("background shells: Bash run_in_background, BashOutput, KillShell", () => {
  hostPids("starts, reads new output incrementally (with a filter), kills", () => {
    const root = tree()
    return Effect.gen(function* () {
      const started = yield* bash(
        { command: "echo $$ > pid; printf 'a1\\nb2\\na3\\n'; echo ready; sleep 1000", run_in_background: true },
        root
      )
      expect(textOf(started.result)).toMatch(/^Command running in background with ID: bash_1\./)
      let seen = ""
      yield* waitFor("background output", () => fs.existsSync(nodePath.join(root, "pid")))
      while (!seen.includes("ready")) {
        const read = textOf((yield* runTool(BashOutputTool, { bash_id: "bash_1", filter: "^(a|ready)" }, root)).result)
        expect(read).toMatch(/^<status>running<\/status>/)
        seen += read
        if (!seen.includes("ready")) yield* sleepLive(10)
      }
      expect(seen).toContain("<stdout>\na1\na3\nready\n</stdout>")
      expect(seen).not.toContain("b2")
      // Output already read is not returned again.
      const again = textOf((yield* runTool(BashOutputTool, { bash_id: "bash_1" }, root)).result)
      expect(again).not.toContain("a1")
      const killed = yield* runTool(KillShellTool, { shell_id: "bash_1" }, root)
      expect(textOf(killed.result)).toContain("Successfully killed shell: bash_1 (echo $$ > pid;")
      const [pid] = pidsIn(nodePath.join(root, "pid"))
      expect(isRunning(pid ?? 0)).toBe(false)
      const status = textOf((yield* runTool(BashOutputTool, { bash_id: "bash_1" }, root)).result)
      expect(status).toMatch(/^<status>killed<\/status>/)
      const twice = yield* Effect.exit(runTool(KillShellTool, { shell_id: "bash_1" }, root))
      expect(JSON.stringify(twice)).toContain("is not running (status: killed)")
      const unknown = yield* Effect.exit(runTool(BashOutputTool, { bash_id: "bash_9" }, root))
      expect(JSON.stringify(unknown)).toContain("No background shell with id bash_9")
    }).pipe(Effect.provide(session(root)))
  })

  it.live("a shell that exits reports completed and its exit code", () => {
    const root = tree()
    return Effect.gen(function* () {
      yield* bash({ command: "echo finished; exit 4", run_in_background: true }, root)
      let text = ""
      for (let attempt = 0; attempt < 1500 && !text.includes("<status>completed"); attempt++) {
        text += textOf((yield* runTool(BashOutputTool, { bash_id: "bash_1" }, root)).result)
        if (!text.includes("<status>completed")) yield* sleepLive(10)
      }
      expect(text).toContain("finished")
      expect(text).toContain("<exit_code>4</exit_code>")
    }).pipe(Effect.provide(session(root)))
  })

  hostPids("closing the session ends every background process, even one ignoring SIGTERM", () => {
    const root = tree()
    const pids = nodePath.join(root, "pids")
    return Effect.gen(function* () {
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* bash({ command: "echo $$ >> pids; sleep 1000", run_in_background: true }, root)
          yield* bash({ command: `trap "" TERM; echo $$ >> pids; sleep 1000`, run_in_background: true }, root)
          yield* waitFor("both shells to start", () => pidsIn(pids).length === 2)
          expect(pidsIn(pids).every(isRunning)).toBe(true)
        }).pipe(Effect.provide(session(root)))
      )
      for (const pid of pidsIn(pids)) expect(isRunning(pid), `pid ${pid} still running`).toBe(false)
    })
  })
})
