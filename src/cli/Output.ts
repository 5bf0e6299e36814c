/**
 * Writing to stdout and stderr as Effects. A write completes once the stream has taken the text (so a slow reader
 * holds the run back rather than letting output pile up in memory), and fails with OutputClosed when the reader has
 * gone (EPIPE: `weft -p ... | head -1`), which stops the run like an interruption: processes are killed, the
 * transcript is flushed, temporary files are removed. Node.js reports a closed pipe as an 'error' event, which
 * would end the process with a stack trace if nobody listened: this module listens.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

/** The reader of stdout or stderr went away. */
export class OutputClosed extends Data.TaggedError("OutputClosed")<{ readonly message: string }> {}

const closed = new Set<NodeJS.WritableStream>()
const watched = new Set<NodeJS.WritableStream>()

/** From now on, an error of `stream` marks it closed instead of crashing the process. */
const watch = (stream: NodeJS.WritableStream) => {
  if (watched.has(stream)) return
  watched.add(stream)
  stream.on("error", () => void closed.add(stream))
}

/** True once a write to `stream` failed (its reader is gone). */
export const isClosed = (stream: NodeJS.WritableStream) => closed.has(stream)

/** Writes `text` to `stream`; fails with OutputClosed if its reader is gone. */
export const writeTo = (stream: NodeJS.WritableStream, name: string, text: string): Effect.Effect<void, OutputClosed> =>
  Effect.async<void, OutputClosed>((resume) => {
    watch(stream)
    const fail = () => resume(Effect.fail(new OutputClosed({ message: `${name} was closed by its reader` })))
    if (closed.has(stream)) return fail()
    stream.write(text, (error) => {
      if (error === undefined || error === null) resume(Effect.void)
      else {
        closed.add(stream)
        fail()
      }
    })
  })

export const stdout = (text: string) => writeTo(process.stdout, "stdout", text)
export const stderr = (text: string) => writeTo(process.stderr, "stderr", text)

/** Writes `text` to stderr without waiting, and without failing: for logs, which must never stop a run. */
export const stderrSync = (text: string) => {
  watch(process.stderr)
  if (!closed.has(process.stderr)) process.stderr.write(text)
}
