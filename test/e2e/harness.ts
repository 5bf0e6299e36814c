/**
 * Runs the built `weft` binary (dist/bin/weft.cjs, built by `npm run build` before the tests) as a user would,
 * against MockAnthropicServer on 127.0.0.1, in temporary project directories.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, expect } from "vitest"
import { startMockAnthropicServer, type StartedMockServer } from "../../src/testing/MockAnthropicServer.js"

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
export const binary = join(repoRoot, "dist/bin/weft.cjs")

export const requireBinary = () => {
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`npm run build\` first (npm test does).`)
}

export interface Run {
  readonly child: ChildProcess
  readonly done: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stdout: string; readonly stderr: string }>
  /** Resolves once stdout has produced a line matching `pattern`. */
  readonly waitForStdout: (pattern: RegExp) => Promise<void>
  /** What stdout has produced so far. */
  readonly stdoutSoFar: () => string
}

export const startWeft = (
  args: ReadonlyArray<string>,
  options: {
    readonly cwd: string
    readonly env?: NodeJS.ProcessEnv
    readonly stdin?: string
    /** Leave stdin open for the test to write to (`child.stdin`) and end. */
    readonly keepStdinOpen?: boolean
  }
): Run => {
  requireBinary()
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env }
  const child = spawn(process.execPath, [binary, ...args], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = []
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
    for (const waiter of waiters.splice(0)) {
      if (waiter.pattern.test(stdout)) waiter.resolve()
      else waiters.push(waiter)
    }
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  if (options.keepStdinOpen === true) {
    if (options.stdin !== undefined) child.stdin.write(options.stdin)
  } else if (options.stdin !== undefined) child.stdin.end(options.stdin)
  else child.stdin.end()
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolveDone) =>
    child.on("close", (code, signal) => resolveDone({ code, signal, stdout, stderr }))
  )
  const waitForStdout = (pattern: RegExp) =>
    new Promise<void>((resolveWait) => {
      if (pattern.test(stdout)) resolveWait()
      else waiters.push({ pattern, resolve: resolveWait })
    })
  return { child, done, waitForStdout, stdoutSoFar: () => stdout }
}

export const runWeft = (args: ReadonlyArray<string>, options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly stdin?: string }) =>
  startWeft(args, options).done

/** A temporary project directory with the given files, and a WEFT_HOME beside it; `cleanup` removes both. */
export const makeProject = async (files: Readonly<Record<string, string>>) => {
  const root = await mkdtemp(join(tmpdir(), "weft-e2e-"))
  const dir = join(root, "project")
  await writeFiles(dir, files)
  return { root, dir, home: join(root, "weft-home"), cleanup: () => rm(root, { recursive: true, force: true }) }
}

/** Writes `files` (paths relative to `dir`, folders made as needed). */
const writeFiles = async (dir: string, files: Readonly<Record<string, string>>) => {
  await mkdir(dir, { recursive: true })
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true })
    await writeFile(join(dir, name), content)
  }
}

/** Files under a HOME of the test's own in `root` (`~/.claude/...`); answers the env addition. */
export const withHome = async (root: string, files: Readonly<Record<string, string>>) => {
  const home = join(root, "home")
  await writeFiles(home, files)
  return { HOME: home }
}

/** A Messages API request as the mock server recorded its body. */
export interface SentRequest {
  readonly model: string
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: unknown }>
  readonly tools?: ReadonlyArray<{ readonly name: string }>
}

const isSentRequest = (body: unknown): body is SentRequest =>
  typeof body === "object" && body !== null && "messages" in body && "model" in body

/** The bodies of the Messages API requests among those the mock server recorded. */
export const messageRequests = (requests: ReadonlyArray<{ readonly path: string; readonly body: unknown }>): ReadonlyArray<SentRequest> =>
  requests.filter((request) => request.path.startsWith("/v1/messages")).map((request) => request.body).filter(isSentRequest)

/** The agents listing the first prompt of a conversation carries (docs/subagents.md): not what most tests are about. */
const isAgentsListing = (text: string) => text.startsWith("<system-reminder>\nAvailable agent types")

/** The text blocks of a message's content, the agents listing left out. */
export const userTexts = (content: unknown): ReadonlyArray<string> =>
  typeof content === "string"
    ? [content]
    : Array.isArray(content)
      ? content.flatMap((block) => (block?.type === "text" && !isAgentsListing(String(block.text)) ? [String(block.text)] : []))
      : []

/** The JSON frames of a stream-json output. */
export const frames = (stdout: string): ReadonlyArray<Record<string, unknown>> =>
  stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))

/** True while `pid` is a live process (a zombie awaiting its reaper counts as gone). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    return false
  }
}

/** Polls a real condition (not a timer-based assertion): resolves when it holds, rejects after `limitMs`. */
export const waitUntil = async (condition: () => boolean | Promise<boolean>, what: string, limitMs = 20_000) => {
  const started = Date.now()
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolveTick) => setTimeout(resolveTick, 25))
  }
}

/**
 * For a test file's sessions: `setup(files, script)` makes a project with `files` and starts the mock server with
 * `script(dir)`, and answers the environment that points weft at both; everything is removed after each test.
 */
export const useSessions = () => {
  const cleanups: Array<() => Promise<unknown>> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  const setup = async (
    files: Readonly<Record<string, string>>,
    script: (dir: string) => Parameters<typeof startMockAnthropicServer>[0]
  ) => {
    const project = await makeProject(files)
    cleanups.push(project.cleanup)
    const server: StartedMockServer = await startMockAnthropicServer(script(project.dir))
    cleanups.push(server.close)
    const env = {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "test-key",
      WEFT_HOME: project.home,
      WEFT_GREP_ENGINE: "builtin"
    }
    return { ...project, server, env }
  }
  /** Registers more cleanup for after the test (run before the project's, in reverse order). */
  const defer = (cleanup: () => Promise<unknown>) => void cleanups.push(cleanup)
  return { setup, defer }
}

/** The last frame of a stream-json output, which must be the result. */
export const resultFrame = (stdout: string) => {
  const all = frames(stdout)
  const last = all[all.length - 1]
  expect(last?.["type"]).toBe("result")
  return last ?? {}
}

/** The tool_result blocks of the user frames of a stream-json output, in order. */
const toolResultBlocks = (stdout: string) =>
  frames(stdout).flatMap((frame) => {
    if (frame["type"] !== "user") return []
    const message = frame["message"]
    const content = typeof message === "object" && message !== null && "content" in message ? message.content : []
    return Array.isArray(content) ? content.filter((block) => block?.type === "tool_result") : []
  })

/** The text of every tool result the model was sent, by tool_use id. */
export const toolResults = (stdout: string): Record<string, string> => {
  const results: Record<string, string> = {}
  for (const block of toolResultBlocks(stdout)) {
    const text = typeof block.content === "string" ? block.content : block.content.map((part: { text?: string }) => part.text ?? "").join("")
    results[block.tool_use_id] = text
  }
  return results
}

/** The content of the first tool_result for `id`, as blocks. */
export const toolResultContent = (stdout: string, id: string): ReadonlyArray<{ readonly type: string; readonly text?: string }> => {
  const block = toolResultBlocks(stdout).find((candidate) => candidate.tool_use_id === id)
  if (block === undefined) return []
  return typeof block.content === "string" ? [{ type: "text", text: block.content }] : block.content
}
