/**
 * WebFetch {url, prompt}: fetches a page and returns it as Markdown (HTML converted by HtmlToMarkdown; text,
 * Markdown and JSON as they come). Differences from Claude Code, on purpose:
 * - Claude Code runs the page through a small secondary model with `prompt`; weft has none here, so it returns
 *   the converted content itself, headed "Content of <url> (to answer: <prompt>)", and the main model does the
 *   answering.
 * - Claude Code upgrades http:// to https:// for public hosts; weft keeps the scheme the model gave, so loopback
 *   and intranet servers (and the tests' http://127.0.0.1) work. Only http and https are fetched.
 * As in Claude Code: redirects within the same host (ignoring `www.`, allowing an http->https upgrade) are
 * followed; a redirect to another host is reported to the model, which may fetch it in a new call. The body is
 * read up to `maxBodyBytes` and the text returned up to `maxChars` (both noted when cut); the whole call is
 * bounded by `timeout`. Interrupting the call aborts the request. It runs on the HttpClient in context (the
 * session's: through HTTPS_PROXY / HTTP_PROXY unless NO_PROXY exempts the host, see model/Proxy.ts).
 */
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Tool from "../Tool.js"

export interface WebFetchOptions {
  /** Bound on the whole call, redirects and body included. Default 60 seconds. */
  readonly timeout?: Duration.Input
  /** Bound on body bytes read (the rest is not downloaded). Default 10 MB. */
  readonly maxBodyBytes?: number
  /** Bound on the characters returned to the model. Default 100,000. */
  readonly maxChars?: number
  /** Bound on same-host redirects followed. Default 10. */
  readonly maxRedirects?: number
}

export const defaultTimeout = Duration.seconds(60)
export const defaultMaxBodyBytes = 10 * 1024 * 1024
export const defaultMaxChars = 100_000
export const defaultMaxRedirects = 10
/** URLs longer than this are refused (Claude Code's bound too). */
export const maxUrlLength = 2000

const WebFetchInput = Schema.Struct({
  // The JSON Schema is given whole: a `jsonSchema` annotation replaces the derived one, description included.
  url: Schema.String.annotate({
    description: "The URL to fetch content from",
    jsonSchema: { type: "string", format: "uri", description: "The URL to fetch content from" }
  }),
  prompt: Schema.String.annotate({ description: "The prompt to run on the fetched content" })
})
export type WebFetchInput = typeof WebFetchInput.Type

const description = `- Fetches content from a specified URL and processes it
- Takes a URL and a prompt as input
- Fetches the URL content, converts HTML to markdown
- Returns the page content (as markdown) together with the prompt, so you can answer it from the content
- Use this tool when you need to retrieve and analyze web content

Usage notes:
  - IMPORTANT: If an MCP-provided web fetch tool is available, prefer using that tool instead of this one, as it may have fewer restrictions. All MCP-provided tools start with "mcp__".
  - The URL must be a fully-formed valid URL (http:// or https://)
  - The prompt should describe what information you want to extract from the page
  - This tool is read-only and does not modify any files
  - Results may be truncated if the content is very large
  - When a URL redirects to a different host, the tool will inform you and provide the redirect URL in a special format. You should then make a new WebFetch request with the redirect URL to fetch the content.`

const toolName = "WebFetch"
const failed = (message: string) => Tool.fail(toolName, message)

const stripWww = (hostname: string): string => (hostname.startsWith("www.") ? hostname.slice(4) : hostname)

/** A redirect weft follows by itself: same host (modulo `www.`), same port, no downgrade, no credentials. */
export const isSameHostRedirect = (from: URL, to: URL): boolean => {
  if (to.username !== "" || to.password !== "") return false
  if (stripWww(from.hostname) !== stripWww(to.hostname)) return false
  if (from.protocol === to.protocol) return from.port === to.port
  // http -> https on default ports is an upgrade, not a move.
  return from.protocol === "http:" && to.protocol === "https:" && from.port === "" && to.port === ""
}

const textualType = (contentType: string): boolean =>
  contentType === "" ||
  contentType.startsWith("text/") ||
  /^application\/([\w.+-]+\+)?(json|xml|javascript|ecmascript|x-javascript|x-sh|x-yaml|yaml|toml|x-www-form-urlencoded|ld\+json|graphql|sql)$/.test(
    contentType
  ) ||
  contentType === "application/xhtml+xml" ||
  contentType.endsWith("+json") ||
  contentType.endsWith("+xml")

const isHtml = (contentType: string, text: string): boolean =>
  contentType === "text/html" ||
  contentType === "application/xhtml+xml" ||
  (contentType === "" && /^\s*(<!doctype html|<html[\s>])/i.test(text.slice(0, 1024)))

const describeFetchError = (error: HttpClientError.HttpClientError): string => {
  const cause: unknown = error.cause
  if (cause instanceof Error) {
    const code = "code" in cause && typeof cause.code === "string" ? `${cause.code}: ` : ""
    return `${code}${cause.message}`
  }
  return error.message
}

/** Reason phrases of the statuses a page answers with, for messages (the client does not keep the server's). */
const reasons: Readonly<Record<number, string>> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  203: "Non-Authoritative Information",
  204: "No Content",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  410: "Gone",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout"
}

const charsetOf = (contentTypeHeader: string): string => /charset\s*=\s*"?([\w-]+)"?/i.exec(contentTypeHeader)?.[1] ?? "utf-8"

const decode = (bytes: Uint8Array, charset: string): string => {
  try {
    return new TextDecoder(charset).decode(bytes)
  } catch {
    // An unknown charset label: UTF-8 is the web's default and the best guess.
    return new TextDecoder("utf-8").decode(bytes)
  }
}

interface Fetched {
  readonly kind: "content"
  readonly url: string
  readonly status: number
  readonly contentType: string
  readonly bytes: Uint8Array
  readonly bodyCut: boolean
  readonly charset: string
}

interface Redirected {
  readonly kind: "redirect"
  readonly from: string
  readonly to: string
  readonly status: number
  readonly statusText: string
}

export const makeWebFetchTool = (options: WebFetchOptions = {}) => {
  const timeout = Duration.fromInputUnsafe(options.timeout ?? defaultTimeout)
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
  const maxChars = options.maxChars ?? defaultMaxChars
  const maxRedirects = options.maxRedirects ?? defaultMaxRedirects

  /**
   * Reads at most `maxBodyBytes` of the body (the bound), a chunk at a time; the rest is never downloaded: the
   * request is aborted when the call's scope closes.
   */
  const readBody = (response: HttpClientResponse.HttpClientResponse, url: URL) =>
    Effect.gen(function* () {
      const chunks: Array<Uint8Array> = []
      let total = 0
      let cut = false
      yield* response.stream.pipe(
        Stream.runForEachWhile((chunk) =>
          Effect.sync(() => {
            const room = maxBodyBytes - total
            if (chunk.length >= room) {
              chunks.push(chunk.subarray(0, room))
              total += room
              cut = true
              return false
            }
            chunks.push(chunk)
            total += chunk.length
            return true
          })
        ),
        Effect.mapError((error) => failed(`The connection failed while reading ${url.href}: ${describeFetchError(error)}`))
      )
      const bytes = new Uint8Array(total)
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.length
      }
      return { bytes, cut }
    })

  const fetchOnce = (client: HttpClient.HttpClient.With<HttpClientError.HttpClientError, Scope.Scope>, url: URL) =>
    client
      .execute(
        HttpClientRequest.get(url, {
          headers: { accept: "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5", "user-agent": "weft/0.1 (WebFetch)" }
        })
      )
      .pipe(Effect.mapError((error) => failed(`Could not fetch ${url.href}: ${describeFetchError(error)}`)))

  const fetchFollowing = (start: URL) =>
    Effect.gen(function* () {
      // Requests tied to the call's scope: closing it (done, timed out or interrupted) aborts whatever is still in
      // flight, an undrained body included. Redirects are followed here, not by the client.
      const client = HttpClient.withScope(yield* HttpClient.HttpClient)
      let current = start
      for (let hop = 0; ; hop++) {
        const response = yield* fetchOnce(client, current)
        const location = response.headers["location"]
        const statusText = reasons[response.status] ?? ""
        if (response.status >= 300 && response.status < 400 && location !== undefined) {
          const target = yield* Effect.try({
            try: () => new URL(location, current),
            catch: () => failed(`${current.href} redirected to an invalid location: ${location}`)
          })
          if (!isSameHostRedirect(current, target)) {
            const redirected: Redirected = {
              kind: "redirect",
              from: current.href,
              to: target.href,
              status: response.status,
              statusText
            }
            return redirected
          }
          if (hop >= maxRedirects) {
            return yield* failed(`Too many redirects (more than ${maxRedirects}) starting from ${start.href}.`)
          }
          current = target
          continue
        }
        if (response.status < 200 || response.status >= 300) {
          return yield* failed(
            `Request failed with status code ${response.status}${statusText ? ` ${statusText}` : ""} for ${current.href}.${response.status === 404 ? " The page does not exist; check the URL." : ""}`
          )
        }
        const contentTypeHeader = response.headers["content-type"] ?? ""
        const contentType = (contentTypeHeader.split(";")[0] ?? "").trim().toLowerCase()
        if (!textualType(contentType)) {
          return yield* failed(
            `${current.href} returned ${contentType}, which is not text; WebFetch only returns web pages and text. To inspect a binary file, download it with Bash (curl -o) and examine it there.`
          )
        }
        const body = yield* readBody(response, current)
        const fetched: Fetched = {
          kind: "content",
          url: current.href,
          status: response.status,
          contentType,
          bytes: body.bytes,
          bodyCut: body.cut,
          charset: charsetOf(contentTypeHeader)
        }
        return fetched
      }
    }).pipe(Effect.scoped)

  const run = Effect.fn("WebFetch.run")(function* (input: WebFetchInput) {
    const started = yield* Clock.currentTimeMillis
    if (input.url.length > maxUrlLength) {
      return yield* failed(`The URL is longer than ${maxUrlLength} characters; use a shorter one.`)
    }
    const url = yield* Effect.try({
      try: () => new URL(input.url.trim()),
      catch: () => failed(`Invalid URL: ${input.url}. Give a fully-formed http:// or https:// URL.`)
    })
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return yield* failed(`WebFetch only fetches http:// and https:// URLs, not ${url.protocol}// (${input.url}).`)
    }
    if (url.username !== "" || url.password !== "") {
      return yield* failed("URLs with a username or password are not fetched; remove the credentials from the URL.")
    }

    const outcome = yield* fetchFollowing(url).pipe(
      Effect.timeoutOrElse({
        duration: timeout,
        orElse: () =>
          Effect.fail(
            Tool.fail(
              toolName,
              `Timed out after ${Duration.format(timeout)} fetching ${url.href}. The server did not answer in time; try again later or another URL.`,
              "timeout"
            )
          )
      })
    )

    if (outcome.kind === "redirect") {
      return Tool.result(
        `REDIRECT DETECTED: The URL redirects to a different host.

Original URL: ${outcome.from}
Redirect URL: ${outcome.to}
Status: ${outcome.status} ${outcome.statusText}

To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:
- url: "${outcome.to}"
- prompt: "${input.prompt}"`,
        { url: input.url, redirectUrl: outcome.to, status: outcome.status }
      )
    }

    if (outcome.contentType === "" && outcome.bytes.subarray(0, 8192).includes(0)) {
      return yield* failed(`${outcome.url} returned binary data; WebFetch only returns web pages and text.`)
    }
    const text = decode(outcome.bytes, outcome.charset)
    // The converter is loaded with the first page that needs it: most sessions fetch none.
    const converted = isHtml(outcome.contentType, text)
      ? (yield* Effect.promise(() => import("./HtmlToMarkdown.js"))).htmlToMarkdown(text, outcome.url)
      : text
    const notes: Array<string> = []
    if (outcome.bodyCut) notes.push(`The page is larger than ${maxBodyBytes} bytes; only the first ${maxBodyBytes} bytes were read.`)
    let content = converted
    if (converted.length > maxChars) {
      content = converted.slice(0, maxChars)
      notes.push(`Content truncated: showing the first ${maxChars} of ${converted.length} characters.`)
    }
    const header = `Content of ${outcome.url} (to answer: ${input.prompt})`
    const footer = notes.length > 0 ? `\n\n[${notes.join(" ")}]` : ""
    const result = Tool.result(`${header}\n\n${content}${footer}`, {
      url: input.url,
      finalUrl: outcome.url,
      status: outcome.status,
      contentType: outcome.contentType,
      bytes: outcome.bytes.length,
      truncated: outcome.bodyCut || converted.length > maxChars
    })
    // Claude Code's WebFetch result, for PostToolUse hooks (`result` is its answer to the prompt; weft's is the page).
    return Tool.withResponse(result, {
      url: input.url,
      code: outcome.status,
      codeText: reasons[outcome.status] ?? "",
      bytes: outcome.bytes.length,
      durationMs: (yield* Clock.currentTimeMillis) - started,
      result: `${content}${footer}`
    })
  })

  return Tool.make({
    name: toolName,
    description,
    input: WebFetchInput,
    readOnly: true,
    target: (input) => ({ _tag: "Url", url: input.url }),
    run: (input) => Stream.concat(Stream.succeed(Tool.progress(`Fetching ${input.url}`)), Stream.fromEffect(run(input)))
  })
}

/** WebFetch with the default bounds (60 s, 10 MB body, 100,000 characters), on the HttpClient in context. */
export const WebFetchTool = makeWebFetchTool()
