/**
 * The ripgrep Grep engine: runs `rg` and folds its output into the same findings as the built-in engine, so the
 * formatter answers identically. The process is scoped (killed on interruption, or as soon as the answer is full).
 *
 * Flags chosen for parity with the built-in engine: `--no-config` (no RIPGREP_CONFIG_PATH surprises),
 * `--no-require-git` (.gitignore files count outside a git repository too), `--no-ignore-global` and
 * `--no-ignore-exclude` (the built-in engine reads neither), `--max-filesize`; content and count modes use
 * `--sort path` so output is deterministic and an early stop keeps exactly the first part of the answer.
 */
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as nodePath from "node:path"
import * as SearchFiles from "./SearchFiles.js"
import type { Interface as SearchFilesInterface } from "./SearchFiles.js"
import { Collector, GrepFailed, type GrepQuery, type Line, MAX_FILE_SIZE_FLAG } from "./GrepOutput.js"

/** Bound on rg's stderr kept for an error message. */
const MAX_STDERR_CHARS = 4096

/** The absolute path of `rg` in the directories of `path` (a PATH value), or undefined. */
export const findRipgrep = (path: string | undefined, files: SearchFilesInterface = SearchFiles.node): string | undefined => {
  for (const dir of (path ?? "").split(nodePath.delimiter)) {
    if (dir === "") continue
    const candidate = nodePath.join(dir, "rg")
    if (files.isExecutable(candidate)) return candidate
  }
  return undefined
}

export const ripgrepArgs = (query: GrepQuery): Array<string> => {
  const args = ["--no-config", "--no-require-git", "--no-ignore-global", "--no-ignore-exclude"]
  args.push("--max-filesize", MAX_FILE_SIZE_FLAG)
  if (query.ignoreCase) args.push("--ignore-case")
  if (query.multiline) args.push("--multiline", "--multiline-dotall")
  for (const glob of query.globs) args.push("--glob", glob)
  if (query.type !== undefined) args.push("--type", query.type)
  switch (query.mode) {
    case "files_with_matches":
      args.push("--files-with-matches", "--null")
      break
    case "count":
      args.push("--count", "--with-filename", "--null", "--sort", "path")
      break
    case "content":
      args.push("--json", "--sort", "path")
      if (query.after > 0) args.push("--after-context", String(query.after))
      if (query.before > 0) args.push("--before-context", String(query.before))
      break
  }
  args.push("--regexp", query.pattern, "--", query.root)
  return args
}

interface JsonText {
  readonly text?: string
  readonly bytes?: string
}

const textOf = (value: JsonText | undefined): string =>
  value?.text ?? (value?.bytes !== undefined ? Buffer.from(value.bytes, "base64").toString("utf8") : "")

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const asJsonText = (value: unknown): JsonText | undefined => {
  if (!isRecord(value)) return undefined
  const text = typeof value["text"] === "string" ? value["text"] : undefined
  const bytes = typeof value["bytes"] === "string" ? value["bytes"] : undefined
  return text !== undefined ? { text } : bytes !== undefined ? { bytes } : {}
}

/** Folds rg's output lines into the collector; returns false once the collector is full. */
const makeParser = (query: GrepQuery, collector: Collector) => {
  let current: { path: string; lines: Array<Line>; count: number } | undefined
  switch (query.mode) {
    case "files_with_matches":
      return (record: string): boolean => (record === "" ? true : collector.add({ path: record, lines: [], count: 1 }))
    case "count":
      return (record: string): boolean => {
        const nul = record.indexOf("\0")
        if (nul < 0) return true
        return collector.add({ path: record.slice(0, nul), lines: [], count: Number(record.slice(nul + 1)) })
      }
    case "content":
      return (record: string): boolean => {
        if (record === "") return true
        const message: unknown = JSON.parse(record)
        if (!isRecord(message) || !isRecord(message["data"])) return true
        const data = message["data"]
        const type = message["type"]
        if (type === "begin") {
          current = { path: textOf(asJsonText(data["path"])), lines: [], count: 0 }
        } else if ((type === "match" || type === "context") && current !== undefined) {
          const first = typeof data["line_number"] === "number" ? data["line_number"] : 0
          const text = textOf(asJsonText(data["lines"])).replace(/\r?\n$/, "")
          const parts = text.split("\n")
          parts.forEach((part, offset) => {
            const number = first + offset
            const last = current?.lines.at(-1)
            // A multiline match can share a line with the previous one; print each line once.
            if (last !== undefined && last.number >= number) return
            current?.lines.push({ number, text: part.endsWith("\r") ? part.slice(0, -1) : part, match: type === "match" })
            if (type === "match" && current !== undefined) current.count++
          })
        } else if (type === "end" && current !== undefined) {
          const done = current
          current = undefined
          return collector.add(done)
        }
        return true
      }
  }
}

/** Runs `rg` (at `executable`) for a query. */
export const search = (query: GrepQuery, executable: string): Effect.Effect<Collector, GrepFailed> =>
  Effect.scoped(
    Effect.gen(function* () {
      const collector = new Collector(query)
      const child = yield* Effect.acquireRelease(
        Effect.try({
          try: () =>
            spawn(executable, ripgrepArgs(query), {
              // rg matches anchored --glob values (`src/**/*.ts`) against paths relative to its working directory.
              cwd: query.rootIsFile ? nodePath.dirname(query.root) : query.root,
              stdio: ["ignore", "pipe", "pipe"]
            }),
          catch: (error) => new GrepFailed({ message: `could not start rg: ${String(error)}` })
        }),
        // rg is one process with no children: a KILL is immediate and loses nothing we still need.
        (child) => Effect.sync(() => (child.exitCode === null && child.signalCode === null ? child.kill("SIGKILL") : true))
      )
      const parse = makeParser(query, collector)
      const separator = query.mode === "files_with_matches" ? "\0" : "\n"
      const outcome = yield* Effect.callback<{ readonly code: number | null; readonly stopped: boolean; readonly stderr: string }, GrepFailed>(
        (resume) => {
          let pending = ""
          let stopped = false
          let stderr = ""
          let failure: string | undefined
          child.stdout.setEncoding("utf8")
          child.stderr.setEncoding("utf8")
          child.stdout.on("data", (chunk: string) => {
            if (stopped) return
            pending += chunk
            let start = 0
            for (let end = pending.indexOf(separator); end !== -1; end = pending.indexOf(separator, start)) {
              const record = pending.slice(start, end)
              start = end + 1
              let more: boolean
              try {
                more = parse(record)
              } catch (error) {
                failure = `could not read rg output: ${String(error)}`
                more = false
              }
              if (!more) {
                stopped = true
                child.kill("SIGKILL")
                break
              }
            }
            pending = stopped ? "" : pending.slice(start)
          })
          child.stderr.on("data", (chunk: string) => {
            if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.slice(0, MAX_STDERR_CHARS - stderr.length)
          })
          child.on("error", (error) => resume(Effect.fail(new GrepFailed({ message: `could not run rg: ${error.message}` }))))
          child.on("close", (code) => {
            if (failure !== undefined) resume(Effect.fail(new GrepFailed({ message: failure })))
            else {
              try {
                if (!stopped && pending !== "") parse(pending)
                resume(Effect.succeed({ code, stopped, stderr }))
              } catch (error) {
                resume(Effect.fail(new GrepFailed({ message: `could not read rg output: ${String(error)}` })))
              }
            }
          })
        }
      )
      if (!outcome.stopped && outcome.code === 2 && collector.files.length === 0) {
        return yield* Effect.fail(new GrepFailed({ message: outcome.stderr.trim().replace(/^rg: /, "") || "rg failed" }))
      }
      return collector
    })
  )
