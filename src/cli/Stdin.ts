/**
 * Reading the prompt from standard input: `echo "..." | weft -p` (stdin is the prompt) and
 * `cat build.log | weft -p "why did this fail?"` (stdin goes with the prompt). Bounded, so a runaway pipe cannot
 * exhaust memory.
 */
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import { fstatSync, readSync } from "node:fs"
import { isatty } from "node:tty"

/** stdin could not be read, or brought more than the bound. */
export class StdinError extends Data.TaggedError("StdinError")<{ readonly message: string }> {}

const tooLarge = (maxBytes: number) => new StdinError({ message: `the input on stdin is larger than ${maxBytes} bytes` })

const unreadable = (error: unknown) =>
  new StdinError({ message: `could not read stdin: ${error instanceof Error ? error.message : String(error)}` })

export interface ReadOptions {
  /** More than this many bytes fails the read. */
  readonly maxBytes: number
  /**
   * When set, gives up (answering undefined) if neither data nor the end of the stream came within this time: a
   * stdin that is an open pipe nobody writes to must not hold up a run that has its prompt already. Once data
   * comes, the stream is read to its end however long that takes.
   */
  readonly firstDataWithin?: Duration.Input
}

/** The whole of `stream` as UTF-8 text, or undefined when `firstDataWithin` passed with nothing. */
export const readAll = (stream: NodeJS.ReadableStream, options: ReadOptions): Effect.Effect<string | undefined, StdinError> =>
  Effect.gen(function* () {
    const started = yield* Deferred.make<void>()
    const reading = Effect.callback<string, StdinError>((resume) => {
      const chunks: Array<Buffer> = []
      let size = 0
      const onData = (chunk: Buffer | string) => {
        Deferred.doneUnsafe(started, Effect.void)
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
        size += bytes.length
        if (size > options.maxBytes) {
          cleanup()
          resume(Effect.fail(tooLarge(options.maxBytes)))
        } else chunks.push(bytes)
      }
      const onEnd = () => {
        Deferred.doneUnsafe(started, Effect.void)
        cleanup()
        resume(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
      }
      const onError = (error: Error) => {
        Deferred.doneUnsafe(started, Effect.void)
        cleanup()
        resume(Effect.fail(unreadable(error)))
      }
      const cleanup = () => {
        stream.off("data", onData).off("end", onEnd).off("error", onError)
        stream.pause()
      }
      stream.on("data", onData).on("end", onEnd).on("error", onError)
      return Effect.sync(cleanup)
    })
    if (options.firstDataWithin === undefined) return yield* reading
    const fiber = yield* Effect.forkChild(reading)
    const came = yield* Deferred.await(started).pipe(Effect.timeout(options.firstDataWithin), Effect.option)
    if (Option.isNone(came)) {
      yield* Fiber.interrupt(fiber)
      return undefined
    }
    return yield* Fiber.join(fiber)
  })

/** The prompt a run starts with: the argument, then what was piped in (either may be missing). */
export const combinePrompt = (argument: string | undefined, piped: string | undefined): string =>
  [argument, piped].filter((part): part is string => part !== undefined && part.trim() !== "").join("\n\n")

/** What stdin brought: text, nothing (a terminal, or no stdin at all), or silence past `firstDataWithin`. */
export type Input =
  | { readonly _tag: "Piped"; readonly text: string }
  | { readonly _tag: "None" }
  | { readonly _tag: "Silent" }

/**
 * Where file descriptor `fd` reads from, found without creating `process.stdin` (a stream, and a first read
 * through the thread pool: about 5% of a print run's instructions when stdin is /dev/null). Only a character
 * device needs asking whether it is a terminal (node:tty, which the build loads on first use).
 */
const sourceOf = (fd: number): "terminal" | "file" | "stream" | "closed" => {
  try {
    const stats = fstatSync(fd)
    if (stats.isFile()) return "file"
    if (stats.isCharacterDevice()) return isatty(fd) ? "terminal" : "file"
    return "stream"
  } catch {
    return "closed"
  }
}

/** One read of `fd` into `buffer`: the byte count (0 at the end), or what went wrong. */
const readChunk = (fd: number, buffer: Buffer): number | StdinError => {
  try {
    return readSync(fd, buffer, 0, buffer.length, null)
  } catch (error) {
    return unreadable(error)
  }
}

/** Reads a file or device to its end, synchronously: it never waits on another process. */
const readToEnd = (fd: number, maxBytes: number): Effect.Effect<string, StdinError> =>
  Effect.suspend(() => {
    const chunks: Array<Buffer> = []
    const buffer = Buffer.allocUnsafe(64 * 1024)
    let size = 0
    for (;;) {
      const read = readChunk(fd, buffer)
      if (typeof read !== "number") return Effect.fail(read)
      if (read === 0) return Effect.succeed(Buffer.concat(chunks).toString("utf8"))
      size += read
      if (size > maxBytes) return Effect.fail(tooLarge(maxBytes))
      chunks.push(Buffer.from(buffer.subarray(0, read)))
    }
  })

/** The process's stdin: a file (or /dev/null) is read at once, a pipe or socket as a stream, a terminal not at all. */
export const readProcessStdin = (options: ReadOptions): Effect.Effect<Input, StdinError> => {
  switch (sourceOf(0)) {
    case "terminal":
    case "closed":
      return Effect.succeed({ _tag: "None" })
    case "file":
      return Effect.map(readToEnd(0, options.maxBytes), (text): Input => ({ _tag: "Piped", text }))
    case "stream":
      return Effect.map(readAll(process.stdin, options), (text): Input => (text === undefined ? { _tag: "Silent" } : { _tag: "Piped", text }))
  }
}

/** One line of a line-by-line input, or the size of one longer than the bound (its text is dropped). */
export type Line = { readonly _tag: "Line"; readonly text: string } | { readonly _tag: "TooLong"; readonly bytes: number }

/**
 * `stream` read line by line as it arrives, for as long as it stays open (the Agent SDK's protocol writes a JSON
 * object per line while turns run). A line over `maxLineBytes` is not kept: it becomes a TooLong item and the lines
 * after it are read as before. A last line without its newline still counts. The reader never waits for the
 * consumer: the protocol's consumer hands each line on at once, so they do not pile up.
 */
export const lines = (stream: NodeJS.ReadableStream, maxLineBytes: number): Stream.Stream<Line, StdinError> =>
  Stream.callback<Line, StdinError>((queue) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        let pending: Array<Buffer> = []
        let size = 0
        // Bytes of the current line once it is over the bound (then it is skipped to its newline).
        let skipped: number | undefined
        const emitLine = () => {
          const text = Buffer.concat(pending).toString("utf8")
          Queue.offerUnsafe(queue, { _tag: "Line", text: text.endsWith("\r") ? text.slice(0, -1) : text })
        }
        const add = (piece: Buffer) => {
          if (skipped !== undefined) skipped += piece.length
          else if (size + piece.length > maxLineBytes) {
            skipped = size + piece.length
            pending = []
            size = 0
          } else {
            pending.push(piece)
            size += piece.length
          }
        }
        const endLine = () => {
          if (skipped !== undefined) Queue.offerUnsafe(queue, { _tag: "TooLong", bytes: skipped })
          else emitLine()
          pending = []
          size = 0
          skipped = undefined
        }
        const onData = (chunk: Buffer | string) => {
          const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
          let start = 0
          for (let newline = bytes.indexOf(10, start); newline !== -1; newline = bytes.indexOf(10, start)) {
            add(bytes.subarray(start, newline))
            endLine()
            start = newline + 1
          }
          if (start < bytes.length) add(bytes.subarray(start))
        }
        const onEnd = () => {
          if (size > 0 || skipped !== undefined) endLine()
          Queue.endUnsafe(queue)
        }
        const onError = (error: Error) => Queue.failCauseUnsafe(queue, Cause.fail(unreadable(error)))
        stream.on("data", onData).on("end", onEnd).on("error", onError)
        return () => {
          stream.off("data", onData).off("end", onEnd).off("error", onError)
          stream.pause()
        }
      }),
      (cleanup) => Effect.sync(cleanup)
    )
  )
