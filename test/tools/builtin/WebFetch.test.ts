import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as NodeHttp from "node:http"
import type { AddressInfo } from "node:net"
import { htmlToMarkdown } from "../../../src/tools/builtin/HtmlToMarkdown.js"
import { isSameHostRedirect, makeWebFetchTool, WebFetchTool } from "../../../src/tools/builtin/WebFetch.js"
import * as Tool from "../../../src/tools/Tool.js"
import * as NodeApiClient from "../../../src/model/NodeApiClient.js"
import { startLoopbackProxy } from "../../support/LoopbackProxy.js"
import { runTool, textOf } from "./helpers.js"

const page = `<!doctype html><html><head><title>Test page</title><script>alert("x")</script>
<style>p { color: red }</style></head><body>
<h2>Section &amp; more</h2><p>Some <strong>bold</strong> text and a <a href="/other">relative link</a>.
<ul><li>one<li>two</ul><pre><code>let x = 1 &lt; 2</code></pre></body></html>`

interface Server {
  readonly base: string
  readonly port: number
  /** Resolved when /hang is requested, and when that request's connection closes. */
  readonly hangReceived: Deferred.Deferred<void>
  readonly hangClosed: Deferred.Deferred<void>
}

const server = Effect.gen(function* () {
  const hangReceived = yield* Deferred.make<void>()
  const hangClosed = yield* Deferred.make<void>()
  const http = yield* Effect.acquireRelease(
    Effect.callback<NodeHttp.Server>((resume) => {
      const instance = NodeHttp.createServer((request, response) => {
        const port = (instance.address() as AddressInfo).port
        switch (request.url) {
          case "/page":
            response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page)
            return
          case "/moved":
            response.writeHead(302, { location: "/page" }).end()
            return
          case "/away":
            response.writeHead(301, { location: `http://localhost:${port}/page` }).end()
            return
          case "/loop":
            response.writeHead(302, { location: "/loop" }).end()
            return
          case "/data.json":
            response.writeHead(200, { "content-type": "application/json" }).end('{"a": [1, 2]}')
            return
          case "/big":
            response.writeHead(200, { "content-type": "text/plain" })
            // 4 MB in 64 KB writes; the client stops reading after its bound.
            for (let i = 0; i < 64; i++) response.write("z".repeat(64 * 1024))
            response.end()
            return
          case "/image":
            response.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
            return
          case "/hang":
            Effect.runSync(Deferred.succeed(hangReceived, undefined))
            request.socket.on("close", () => Effect.runSync(Deferred.succeed(hangClosed, undefined)))
            return // never answers
          default:
            response.writeHead(404, { "content-type": "text/plain" }).end("nope")
        }
      })
      instance.listen(0, "127.0.0.1", () => resume(Effect.succeed(instance)))
    }),
    (instance) =>
      Effect.callback<void>((resume) => {
        instance.closeAllConnections()
        instance.close(() => resume(Effect.void))
      })
  )
  const port = (http.address() as AddressInfo).port
  return { base: `http://127.0.0.1:${port}`, port, hangReceived, hangClosed } satisfies Server
})

const fetchWith = (tool: typeof WebFetchTool, url: string, prompt = "what is on the page?") =>
  runTool(tool, { url, prompt }, "/").pipe(Effect.provide(NodeApiClient.layerHttpClient))
const failureOf = <A, R>(effect: Effect.Effect<A, Tool.ToolError, R>) =>
  Effect.map(Effect.flip(effect), (error) => {
    expect(error._tag).toBe("ToolFailed")
    return error.message
  })

describe("WebFetch", () => {
  it("derives Claude Code's input schema and targets the url", () => {
    const schema = Tool.jsonSchemaOf(WebFetchTool.input)
    expect(schema["required"]).toEqual(["url", "prompt"])
    expect(schema["properties"]).toMatchObject({ url: { type: "string", format: "uri" }, prompt: { type: "string" } })
    expect(WebFetchTool.readOnly).toBe(true)
    expect(WebFetchTool.target({ url: "https://e.com", prompt: "p" }, { toolUseId: "t", sessionId: "s", cwd: "/" })).toEqual({
      _tag: "Url",
      url: "https://e.com"
    })
  })

  it.effect("converts an HTML page to markdown, with the prompt as context", () =>
    Effect.gen(function* () {
      const { base } = yield* server
      const text = textOf(yield* fetchWith(WebFetchTool, `${base}/page`, "find the link"))
      expect(text.startsWith(`Content of ${base}/page (to answer: find the link)\n\n# Test page\n\n## Section & more`)).toBe(true)
      expect(text).toContain(`Some **bold** text and a [relative link](${base}/other).`)
      expect(text).toContain("- one\n- two")
      expect(text).toContain("```\nlet x = 1 < 2\n```")
      expect(text).not.toContain("alert")
      expect(text).not.toContain("color: red")
    })
  )

  it.effect("follows a same-host redirect and reports a cross-host one", () =>
    Effect.gen(function* () {
      const { base, port } = yield* server
      const followed = yield* fetchWith(WebFetchTool, `${base}/moved`)
      expect(textOf(followed)).toContain(`Content of ${base}/page`)
      const reported = textOf(yield* fetchWith(WebFetchTool, `${base}/away`, "summarise"))
      expect(reported).toContain("REDIRECT DETECTED: The URL redirects to a different host.")
      expect(reported).toContain(`Redirect URL: http://localhost:${port}/page`)
      expect(reported).toContain(`- url: "http://localhost:${port}/page"\n- prompt: "summarise"`)
      expect(yield* failureOf(fetchWith(WebFetchTool, `${base}/loop`))).toContain("Too many redirects")
    })
  )

  it.effect("returns JSON as it is and refuses binary content", () =>
    Effect.gen(function* () {
      const { base } = yield* server
      const json = yield* fetchWith(WebFetchTool, `${base}/data.json`)
      expect(textOf(json)).toBe(`Content of ${base}/data.json (to answer: what is on the page?)\n\n{"a": [1, 2]}`)
      // PostToolUse hooks get Claude Code's result.
      expect(json.toolResponse).toEqual({
        url: `${base}/data.json`,
        code: 200,
        codeText: "OK",
        bytes: 13,
        durationMs: expect.any(Number),
        result: '{"a": [1, 2]}'
      })
      expect(yield* failureOf(fetchWith(WebFetchTool, `${base}/image`))).toContain("returned image/png, which is not text")
    })
  )

  it.effect("reports HTTP errors, bad schemes and unreachable hosts clearly", () =>
    Effect.gen(function* () {
      const { base } = yield* server
      expect(yield* failureOf(fetchWith(WebFetchTool, `${base}/missing`))).toContain("status code 404 Not Found")
      expect(yield* failureOf(fetchWith(WebFetchTool, "ftp://example.com/file"))).toContain(
        "only fetches http:// and https:// URLs"
      )
      expect(yield* failureOf(fetchWith(WebFetchTool, "file:///etc/passwd"))).toContain("only fetches http:// and https://")
      expect(yield* failureOf(fetchWith(WebFetchTool, "not a url"))).toContain("Invalid URL")
      // A port nobody listens on (the server's own, once it is closed, would race; port 9 is discard and closed).
      expect(yield* failureOf(fetchWith(WebFetchTool, "http://127.0.0.1:9/"))).toContain("Could not fetch")
    })
  )

  it.effect("caps the body read and the text returned", () =>
    Effect.gen(function* () {
      const { base } = yield* server
      const small = makeWebFetchTool({ maxBodyBytes: 100_000, maxChars: 1_000_000 })
      const bodyCut = textOf(yield* fetchWith(small, `${base}/big`))
      expect(bodyCut).toContain("only the first 100000 bytes were read")
      expect(bodyCut.split("z").length - 1).toBe(100_000)
      const short = makeWebFetchTool({ maxChars: 500 })
      const charsCut = textOf(yield* fetchWith(short, `${base}/big`))
      expect(charsCut).toContain("Content truncated: showing the first 500 of 4194304 characters.")
      expect(charsCut.split("z").length - 1).toBe(500)
    })
  )

  it.effect("goes through HTTP_PROXY (absolute form) unless NO_PROXY names the host, with the body still capped", () =>
    Effect.gen(function* () {
      const { base } = yield* server
      const proxy = yield* Effect.acquireRelease(Effect.promise(startLoopbackProxy), (started) => Effect.promise(started.close))
      const small = makeWebFetchTool({ maxBodyBytes: 1000 })
      const viaProxy = (env: Record<string, string>) =>
        runTool(small, { url: `${base}/big`, prompt: "p" }, "/").pipe(
          Effect.provide(NodeApiClient.layerHttpClient),
          Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
        )
      const text = textOf(yield* viaProxy({ HTTP_PROXY: proxy.url }))
      expect(text).toContain("only the first 1000 bytes were read")
      expect(proxy.requests).toEqual([{ method: "GET", target: `${base}/big`, proxyAuthorization: undefined }])
      yield* viaProxy({ http_proxy: proxy.url, no_proxy: "127.0.0.1" })
      expect(proxy.requests.length).toBe(1)
    })
  )

  // Live clock: the timeout is real time (no assertion on how long it took).
  it.live("times out on a server that never answers", () =>
    Effect.gen(function* () {
      const { base, hangClosed } = yield* server
      const quick = makeWebFetchTool({ timeout: "200 millis" })
      expect(yield* failureOf(fetchWith(quick, `${base}/hang`))).toContain("Timed out after 200ms")
      // The request was aborted, not left hanging.
      yield* Deferred.await(hangClosed)
    }).pipe(Effect.scoped)
  )

  it.effect("interrupting the call aborts the request", () =>
    Effect.gen(function* () {
      const { base, hangReceived, hangClosed } = yield* server
      const fiber = yield* Effect.forkChild(fetchWith(WebFetchTool, `${base}/hang`))
      yield* Deferred.await(hangReceived)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(hangClosed)
    })
  )

  it("treats www. and an http->https upgrade as the same host", () => {
    const url = (href: string) => new URL(href)
    expect(isSameHostRedirect(url("https://example.com/a"), url("https://www.example.com/b"))).toBe(true)
    expect(isSameHostRedirect(url("http://example.com/a"), url("https://example.com/a"))).toBe(true)
    expect(isSameHostRedirect(url("https://example.com/a"), url("http://example.com/a"))).toBe(false)
    expect(isSameHostRedirect(url("https://example.com/a"), url("https://evil.com/a"))).toBe(false)
    expect(isSameHostRedirect(url("http://127.0.0.1:80/a"), url("http://127.0.0.1:81/a"))).toBe(false)
  })
})

describe("htmlToMarkdown", () => {
  it("renders the common structures", () => {
    const html = `<h1>T</h1><p>a<br>b &mdash; &#65;&#x42; &unknown;</p>
<ol start="3"><li>x<ul><li>y</li></ul></li><li>z</ol>
<blockquote><p>q1</p><p>q2</p></blockquote>
<table><tr><th>h1</th><th>h2</th></tr><tr><td>1</td><td>a|b</td></tr></table>
<p><em>e</em> <code>c</code> <img src="i.png" alt="pic"> <a href="#top">top</a></p><hr><pre class="language-py">def f():
    return 1</pre>`
    expect(htmlToMarkdown(html, "https://site.test/dir/")).toBe(
      [
        "# T",
        "",
        "a\nb — AB &unknown;",
        "",
        "3. x\n   - y\n4. z",
        "",
        "> q1\n>\n> q2",
        "",
        "| h1 | h2 |\n| --- | --- |\n| 1 | a\\|b |",
        "",
        "*e* `c` ![pic](https://site.test/dir/i.png) [top](https://site.test/dir/#top)",
        "",
        "---",
        "",
        "```py\ndef f():\n    return 1\n```"
      ].join("\n")
    )
  })

  it("survives malformed and deeply nested markup", () => {
    expect(htmlToMarkdown("<p>unclosed <b>bold <i>both</p><p>next</div></span>")).toBe("unclosed **bold *both***\n\nnext")
    expect(htmlToMarkdown("a < b <3 and <!-- hidden --> c")).toBe("a < b <3 and c")
    const deep = "<div>".repeat(20_000) + "core" + "</div>".repeat(20_000)
    expect(htmlToMarkdown(deep)).toBe("core")
  })
})
