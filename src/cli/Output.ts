/**
 * Writing to stdout and stderr as Effects. A write completes once the output has taken the text (so a slow reader
 * holds the run back rather than letting output pile up in memory), and fails with OutputClosed when the reader has
 * gone (EPIPE: `weft -p ... | head -1`), which stops the run like an interruption: processes are killed, the
 * transcript is flushed, temporary files are removed.
 *
 * The text goes straight to file descriptors 1 and 2 (`fs.writeSync`), as Node.js itself writes to files, and to
 * terminals and pipes on Linux. Node's `process.stdout` stream is not made for that: making it costs every start
 * 4-14 M instructions (a pipe's socket, the stream machinery; callgrind: startup-ab.mjs and phases.mjs). Where a
 * descriptor does not take a blocking write (EAGAIN: a pipe its reader made non-blocking), the rest of that output
 * goes through Node's stream, which waits for the pipe to drain; Node reports a closed pipe there as an 'error'
 * event, which would end the process with a stack trace if nobody listened: this module listens.
 *
 * `madeStreams` tells which of `process.stdout` / `process.stderr` exist (anyone may have made them: console.log
 * does), so that the exit waits for what they still hold and nothing more.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { formatWithOptions } from "node:util"

/** The reader of stdout or stderr went away. */
export class OutputClosed extends Data.TaggedError("OutputClosed")<{ readonly message: string }> {}

export type Name = "stdout" | "stderr"

const descriptors: Readonly<Record<Name, number>> = { stdout: 1, stderr: 2 }

/**
 * Node makes `process.stdout` and `process.stderr` when they are first read (a getter on `process`); the getters
 * are wrapped here, once, to note that, and otherwise answer as before.
 */
const made = new Set<Name>()
for (const name of ["stdout", "stderr"] as const) {
  const property = Object.getOwnPropertyDescriptor(process, name)
  const get = property?.get
  if (get === undefined || property?.configurable !== true) {
    made.add(name)
    continue
  }
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: property.enumerable ?? true,
    get() {
      made.add(name)
      return get.call(process)
    }
  })
}

/** Which of the process's streams exist now (see the module doc). */
export const madeStreams = (): ReadonlyArray<Name> => [...made]

const closed = new Set<Name>()
/** Outputs whose descriptor refused a blocking write: written through Node's stream from then on. */
const streamed = new Set<Name>()
const watched = new Set<Name>()

/** From now on, an error of `name`'s stream marks it closed instead of crashing the process. */
const watch = (name: Name) => {
  if (watched.has(name)) return
  watched.add(name)
  process[name].on("error", () => void closed.add(name))
}

/** True once a write to `name` failed (its reader is gone). */
export const isClosed = (name: Name) => closed.has(name)

const errorCode = (error: unknown): unknown => (typeof error === "object" && error !== null ? Reflect.get(error, "code") : undefined)

/**
 * Writes `text` to `name`'s descriptor: "written", or "closed" (the write failed: the reader is gone), or the bytes
 * the descriptor would not take without blocking, for the stream to write.
 */
const writeDirect = (name: Name, text: string): "written" | "closed" | Buffer => {
  const bytes = Buffer.from(text, "utf8")
  let offset = 0
  try {
    while (offset < bytes.length) offset += fs.writeSync(descriptors[name], bytes, offset)
    return "written"
  } catch (error) {
    if (errorCode(error) === "EAGAIN") {
      streamed.add(name)
      return bytes.subarray(offset)
    }
    closed.add(name)
    return "closed"
  }
}

/** Writes `text` to stdout or stderr; fails with OutputClosed if its reader is gone. */
export const writeTo = (name: Name, text: string): Effect.Effect<void, OutputClosed> =>
  Effect.callback<void, OutputClosed>((resume) => {
    const fail = () => resume(Effect.fail(new OutputClosed({ message: `${name} was closed by its reader` })))
    if (closed.has(name)) return fail()
    const rest = streamed.has(name) ? text : writeDirect(name, text)
    if (rest === "written") return resume(Effect.void)
    if (rest === "closed") return fail()
    watch(name)
    process[name].write(rest, (error) => {
      if (error === undefined || error === null) resume(Effect.void)
      else {
        closed.add(name)
        fail()
      }
    })
  })

export const stdout = (text: string) => writeTo("stdout", text)
export const stderr = (text: string) => writeTo("stderr", text)

/** Writes `text` to stderr without waiting, and without failing: for logs, which must never stop a run. */
export const stderrSync = (text: string) => {
  if (closed.has("stderr")) return
  const rest = streamed.has("stderr") ? text : writeDirect("stderr", text)
  if (rest === "written" || rest === "closed") return
  watch("stderr")
  process.stderr.write(rest)
}

/** The console methods that write to stdout in Node.js (`warn`, `error` and `trace` already write to stderr). */
const stdoutMethods = ["log", "info", "debug", "dir", "dirxml", "table"] as const

/**
 * While a command's output belongs to its frames, what a library prints with `console.log` and its kin (the MCP
 * client library's `console.debug` notes, say) goes to stderr, through `write` (default: this module's stderr),
 * so stdout carries weft's output alone. Answers the function that puts the console back.
 */
export const consoleToStderr = (write: (text: string) => void = stderrSync): (() => void) => {
  const saved = stdoutMethods.map((name) => [name, console[name]] as const)
  const toStderr = (...args: ReadonlyArray<unknown>) => write(`${formatWithOptions({ colors: false }, ...args)}\n`)
  for (const name of stdoutMethods) console[name] = toStderr
  return () => {
    for (const [name, method] of saved) Object.assign(console, { [name]: method })
  }
}
