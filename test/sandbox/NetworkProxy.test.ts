/**
 * The proxy on its unix socket, with real loopback origins on 127.0.0.1 (and ::1 where the machine has it) and an
 * injected resolver (no real DNS): plain HTTP in absolute form, CONNECT and SOCKS5 reach an allowed origin by name and
 * by IP; an unlisted, denied or private-resolving one gets 403 naming the reason and a violation on that command's
 * listener; closing the listener ends its connections and removes its socket.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as os from "node:os"
import type { Policy } from "../../src/sandbox/NetworkPolicy.js"
import {
  formatViolations,
  type Lookup,
  lookupStatic,
  make,
  MAX_VIOLATIONS
} from "../../src/sandbox/NetworkProxy.js"
import { tempDir } from "../support/TempFiles.js"

const hasIpv6Loopback = Object.values(os.networkInterfaces()).some((addresses) =>
  (addresses ?? []).some((address) => address.address === "::1")
)
if (!hasIpv6Loopback) console.warn("SKIPPED: the IPv6 loopback case (this machine has no ::1)")

interface Origin {
  readonly port: number
  readonly requests: Array<string>
}

/** An HTTP server on a loopback address answering `origin <method> <path>`, closed with the scope. */
const origin = (host = "127.0.0.1") =>
  Effect.acquireRelease(
    Effect.callback<Origin & { readonly server: http.Server }>((resume) => {
      const requests: Array<string> = []
      const server = http.createServer((request, response) => {
        requests.push(`${request.method} ${request.url} host=${request.headers.host}`)
        let body = ""
        request.on("data", (chunk: Buffer) => (body += chunk.toString()))
        request.on("end", () => response.end(`origin ${request.method} ${request.url}${body === "" ? "" : ` ${body}`}`))
      })
      server.listen(0, host, () => {
        const address = server.address()
        resume(Effect.succeed({ server, requests, port: typeof address === "object" && address !== null ? address.port : 0 }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

interface Reply {
  readonly status: number
  readonly body: string
}

/** A plain HTTP request in absolute form through the proxy's socket. */
const viaHttp = (socketPath: string, url: string, options: { method?: string; body?: string } = {}) =>
  Effect.callback<Reply>((resume) => {
    const request = http.request({ socketPath, path: url, method: options.method ?? "GET", headers: { host: new URL(url).host } })
    request.on("response", (response) => {
      let body = ""
      response.on("data", (chunk: Buffer) => (body += chunk.toString()))
      response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, body })))
    })
    request.on("error", (error) => resume(Effect.succeed({ status: 0, body: error.message })))
    request.end(options.body)
  })

/** Everything a raw connection to the socket receives after sending `bytes` (and `after` once the first reply came). */
const raw = (socketPath: string, bytes: Buffer | string, after?: (first: Buffer) => Buffer | string | undefined) =>
  Effect.callback<Buffer>((resume) => {
    const socket = net.connect(socketPath)
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => {
      if (chunks.length === 0 && after !== undefined) {
        const next = after(chunk)
        if (next !== undefined) socket.write(next)
      }
      chunks.push(chunk)
    })
    socket.on("close", () => resume(Effect.succeed(Buffer.concat(chunks))))
    socket.on("error", () => socket.destroy())
    socket.write(bytes)
    return Effect.sync(() => socket.destroy())
  })

/** CONNECT host:port, then a plain HTTP request inside the tunnel. */
const viaConnect = (socketPath: string, authority: string) =>
  Effect.map(
    raw(socketPath, `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`, (first) =>
      first.toString().startsWith("HTTP/1.1 200") ? `GET /tunnelled HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n` : undefined
    ),
    (bytes) => bytes.toString()
  )

/** A SOCKS5 greeting and CONNECT by name (address type 3) in one write: what comes back until the proxy closes. */
const viaSocks = (socketPath: string, host: string, port: number) => {
  const name = Buffer.from(host)
  return raw(socketPath, Buffer.concat([Buffer.from([5, 1, 0, 5, 1, 0, 3, name.length]), name, Buffer.from([port >> 8, port & 255])]))
}

const policy = (allowedDomains: ReadonlyArray<string>, deniedDomains: ReadonlyArray<string> = []): Policy => ({
  allowedDomains,
  deniedDomains
})

/** A proxy with one listener in a fresh directory. */
const proxyWith = (allowed: Policy, lookup: Lookup = lookupStatic({})) =>
  Effect.gen(function* () {
    const proxy = yield* make({ policy: allowed, lookup })
    const listener = yield* proxy.listen(tempDir("weft-net-"))
    return { proxy, listener }
  })

describe("NetworkProxy", () => {
  it.live("plain HTTP reaches an allowed origin by name (localhost) and by IP", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const { listener } = yield* proxyWith(policy(["localhost", "127.0.0.1"]))
      const byName = yield* viaHttp(listener.socketPath, `http://localhost:${server.port}/a?b=1`)
      const byIp = yield* viaHttp(listener.socketPath, `http://127.0.0.1:${server.port}/c`, { method: "POST", body: "payload" })
      expect(byName).toEqual({ status: 200, body: "origin GET /a?b=1" })
      expect(byIp).toEqual({ status: 200, body: "origin POST /c payload" })
      expect(server.requests).toEqual([`GET /a?b=1 host=localhost:${server.port}`, `POST /c host=127.0.0.1:${server.port}`])
      expect(yield* listener.violations).toEqual([])
    })
  )

  it.live("CONNECT tunnels to an allowed origin by name and by IP", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const { listener } = yield* proxyWith(policy(["localhost", "127.0.0.1"]))
      const byName = yield* viaConnect(listener.socketPath, `localhost:${server.port}`)
      const byIp = yield* viaConnect(listener.socketPath, `127.0.0.1:${server.port}`)
      for (const reply of [byName, byIp]) {
        expect(reply).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/)
        expect(reply).toContain("origin GET /tunnelled")
      }
      expect(server.requests).toHaveLength(2)
    })
  )

  it.live("an unlisted host gets 403 naming the reason and a violation; the origin sees nothing", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const { listener } = yield* proxyWith(policy(["localhost"]))
      const plain = yield* viaHttp(listener.socketPath, `http://127.0.0.1:${server.port}/`)
      const again = yield* viaHttp(listener.socketPath, `http://127.0.0.1:${server.port}/other`)
      const tunnel = yield* viaConnect(listener.socketPath, `unlisted.test:443`)
      expect(plain.status).toBe(403)
      expect(plain.body).toBe("weft sandbox: 127.0.0.1 is not in sandbox.network.allowedDomains\n")
      expect(again.status).toBe(403)
      expect(tunnel).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/)
      expect(tunnel).toContain("weft sandbox: unlisted.test is not in sandbox.network.allowedDomains")
      expect(server.requests).toEqual([])
      expect(yield* listener.violations).toEqual([
        { host: "127.0.0.1", port: server.port, reason: "unlisted", message: "127.0.0.1 is not in sandbox.network.allowedDomains", count: 2 },
        { host: "unlisted.test", port: 443, reason: "unlisted", message: "unlisted.test is not in sandbox.network.allowedDomains", count: 1 }
      ])
    })
  )

  it.live("names are resolved on the host side: a listed name resolving to loopback is refused unless loopback is listed", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const lookup = lookupStatic({ "app.test": ["127.0.0.1"] })
      const strict = yield* proxyWith(policy(["app.test"]), lookup)
      const refused = yield* viaHttp(strict.listener.socketPath, `http://app.test:${server.port}/`)
      expect(refused.status).toBe(403)
      expect(refused.body).toContain("app.test resolves to 127.0.0.1, a loopback or private address")
      expect(yield* strict.listener.violations).toMatchObject([{ host: "app.test", reason: "private-address" }])

      const literal = yield* proxyWith(policy(["app.test", "127.0.0.1"]), lookup)
      expect(yield* viaHttp(literal.listener.socketPath, `http://app.test:${server.port}/ok`)).toEqual({ status: 200, body: "origin GET /ok" })
      expect(yield* viaConnect(literal.listener.socketPath, `app.test:${server.port}`)).toContain("origin GET /tunnelled")
      // The origin was reached at the resolved address, with the name the client used as Host.
      expect(server.requests[0]).toBe(`GET /ok host=app.test:${server.port}`)
    })
  )

  it.live("deniedDomains win, and an unlisted name is never resolved", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const asked: Array<string> = []
      const lookup: Lookup = (host) => Effect.andThen(Effect.sync(() => asked.push(host)), lookupStatic({ "ok.test": ["127.0.0.1"] })(host))
      const { listener } = yield* proxyWith(policy(["*.test", "127.0.0.1"], ["secret.test", "127.0.0.1:" + server.port]), lookup)
      const denied = yield* viaHttp(listener.socketPath, `http://secret.test:${server.port}/`)
      const deniedIp = yield* viaConnect(listener.socketPath, `127.0.0.1:${server.port}`)
      const unlisted = yield* viaHttp(listener.socketPath, `http://exfiltrate-data.example/`)
      const deniedAddress = yield* viaHttp(listener.socketPath, `http://ok.test:${server.port}/`)
      expect([denied.status, unlisted.status, deniedAddress.status]).toEqual([403, 403, 403])
      expect(denied.body).toContain("secret.test is in sandbox.network.deniedDomains")
      expect(deniedIp).toContain("127.0.0.1 is in sandbox.network.deniedDomains")
      expect(deniedAddress.body).toContain("ok.test resolves to 127.0.0.1, which is in sandbox.network.deniedDomains")
      expect(asked).toEqual(["ok.test"])
      expect((yield* listener.violations).map((violation) => violation.reason)).toEqual(["denied", "denied", "unlisted", "denied"])
      expect(server.requests).toEqual([])
    })
  )

  it.live("SOCKS5 reaches an allowed host and is refused an unlisted one with 'not allowed by ruleset'", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const { listener } = yield* proxyWith(policy(["localhost"]))
      const allowed = yield* Effect.callback<string>((resume) => {
        const socket = net.connect(listener.socketPath)
        const name = Buffer.from("localhost")
        let received = Buffer.alloc(0)
        let sent = false
        socket.on("data", (chunk: Buffer) => {
          received = Buffer.concat([received, chunk])
          if (!sent && received.length >= 12) {
            sent = true
            socket.write("GET /socks HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
          }
        })
        socket.on("close", () => resume(Effect.succeed(received.toString("latin1"))))
        socket.write(Buffer.concat([Buffer.from([5, 1, 0, 5, 1, 0, 3, name.length]), name, Buffer.from([server.port >> 8, server.port & 255])]))
      })
      expect(allowed.slice(0, 4)).toBe("\x05\x00\x05\x00")
      expect(allowed).toContain("origin GET /socks")

      // Everything in one write, the request inside the tunnel included: what arrives early is relayed once it opens.
      const name = Buffer.from("localhost")
      const early = yield* raw(
        listener.socketPath,
        Buffer.concat([
          Buffer.from([5, 1, 0, 5, 1, 0, 3, name.length]),
          name,
          Buffer.from([server.port >> 8, server.port & 255]),
          Buffer.from("GET /early HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        ])
      )
      expect(early.toString("latin1")).toContain("origin GET /early")

      const refused = yield* viaSocks(listener.socketPath, "unlisted.test", 443)
      expect([...refused]).toEqual([5, 0, 5, 2, 0, 1, 0, 0, 0, 0, 0, 0])
      expect(yield* listener.violations).toMatchObject([{ host: "unlisted.test", port: 443, reason: "unlisted" }])
    })
  )

  it.live("each listener keeps its own violations; a new policy applies to the next request", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const proxy = yield* make({ policy: policy([]), lookup: lookupStatic({}) })
      const first = yield* proxy.listen(tempDir("weft-net-"))
      const second = yield* proxy.listen(tempDir("weft-net-"))
      expect((yield* viaHttp(first.socketPath, `http://127.0.0.1:${server.port}/`)).status).toBe(403)
      yield* proxy.setPolicy(policy(["127.0.0.1"]))
      expect(yield* proxy.policy).toEqual(policy(["127.0.0.1"]))
      expect((yield* viaHttp(second.socketPath, `http://127.0.0.1:${server.port}/`)).status).toBe(200)
      expect(yield* first.violations).toHaveLength(1)
      expect(yield* second.violations).toEqual([])
    })
  )

  it.live("a name that does not resolve or an origin that does not answer is a 502, not a violation", () =>
    Effect.gen(function* () {
      const closedPort = yield* Effect.acquireRelease(
        Effect.callback<number>((resume) => {
          const probe = net.createServer().listen(0, "127.0.0.1", () => {
            const address = probe.address()
            probe.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0)))
          })
        }),
        () => Effect.void
      )
      const { listener } = yield* proxyWith(policy(["*.test", "127.0.0.1"]))
      const unresolved = yield* viaHttp(listener.socketPath, "http://nowhere.test/")
      const refused = yield* viaConnect(listener.socketPath, `127.0.0.1:${closedPort}`)
      expect(unresolved.status).toBe(502)
      expect(unresolved.body).toContain("could not resolve nowhere.test")
      expect(refused).toMatch(/^HTTP\/1\.1 502 Bad Gateway/)
      expect(refused).toContain("ECONNREFUSED")
      expect(yield* listener.violations).toEqual([])
    })
  )

  it.live("plain HTTP goes to the checked host: a Host header naming another one is replaced", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const { listener } = yield* proxyWith(policy(["127.0.0.1"]))
      const reply = yield* raw(
        listener.socketPath,
        `GET http://127.0.0.1:${server.port}/fronted HTTP/1.1\r\nHost: unlisted.example\r\nConnection: close\r\n\r\n`
      )
      expect(reply.toString()).toContain("origin GET /fronted")
      expect(server.requests).toEqual([`GET /fronted host=127.0.0.1:${server.port}`])
    })
  )

  it.live("an upgrade (WebSocket over ws://) is checked, then relayed both ways", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      server.server.on("upgrade", (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
        server.requests.push(
          `UPGRADE ${request.url} ${request.headers["upgrade"]} host=${request.headers.host} proxy-authorization=${request.headers["proxy-authorization"]}`
        )
        socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
        socket.write(head)
        socket.pipe(socket)
      })
      const { listener } = yield* proxyWith(policy([`127.0.0.1:${server.port}`]))
      const ask = (port: number) =>
        Effect.map(
          raw(
            listener.socketPath,
            `GET http://127.0.0.1:${port}/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: echo\r\n` +
              `Proxy-Authorization: Basic eA==\r\n\r\nping`
          ),
          (bytes) => bytes.toString()
        )
      const upgraded = yield* Effect.callback<string>((resume) => {
        const socket = net.connect(listener.socketPath)
        let received = ""
        socket.on("data", (chunk: Buffer) => {
          received += chunk.toString()
          if (received.endsWith("ping")) socket.write("pong")
          if (received.endsWith("pingpong")) socket.end()
        })
        socket.on("close", () => resume(Effect.succeed(received)))
        socket.write(
          `GET http://127.0.0.1:${server.port}/ws HTTP/1.1\r\nHost: unlisted.example\r\nConnection: Upgrade\r\nUpgrade: echo\r\n` +
            `Proxy-Authorization: Basic eA==\r\n\r\nping`
        )
      })
      expect(upgraded).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n[\s\S]*\r\n\r\npingpong$/)
      expect(server.requests).toEqual([`UPGRADE /ws echo host=127.0.0.1:${server.port} proxy-authorization=undefined`])
      const refused = yield* ask(server.port + 1 > 65535 ? 1 : server.port + 1)
      expect(refused).toMatch(/^HTTP\/1\.1 403 Forbidden/)
      expect(yield* listener.violations).toMatchObject([{ host: "127.0.0.1", reason: "unlisted" }])
    })
  )

  it.live.skipIf(!hasIpv6Loopback)("IPv6 loopback: by IP literal, and localhost falls back to ::1", () =>
    Effect.gen(function* () {
      const server = yield* origin("::1")
      const { listener } = yield* proxyWith(policy(["[::1]", "localhost"]))
      expect(yield* viaHttp(listener.socketPath, `http://[::1]:${server.port}/six`)).toEqual({ status: 200, body: "origin GET /six" })
      expect(yield* viaConnect(listener.socketPath, `[::1]:${server.port}`)).toContain("origin GET /tunnelled")
      // Nothing on 127.0.0.1 at that port: the proxy tries localhost's next address.
      expect(yield* viaHttp(listener.socketPath, `http://localhost:${server.port}/name`)).toEqual({ status: 200, body: "origin GET /name" })
    })
  )

  it.live("requests that are not proxy requests get 400", () =>
    Effect.gen(function* () {
      const { listener } = yield* proxyWith(policy(["localhost"]))
      const originForm = yield* raw(listener.socketPath, "GET /x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
      const badConnect = yield* raw(listener.socketPath, "CONNECT user@localhost:80 HTTP/1.1\r\nHost: x\r\n\r\n")
      const garbage = yield* raw(listener.socketPath, "\x01\x02 not http\r\n\r\n")
      expect(originForm.toString()).toMatch(/^HTTP\/1\.1 400/)
      expect(badConnect.toString()).toMatch(/^HTTP\/1\.1 400/)
      expect(garbage.toString()).toMatch(/^HTTP\/1\.1 400/)
    })
  )

  it.live("closing the listener's scope ends its open tunnels and removes the socket", () =>
    Effect.gen(function* () {
      const server = yield* origin()
      const proxy = yield* make({ policy: policy(["127.0.0.1"]) })
      const scope = yield* Scope.make()
      const listener = yield* Scope.provide(proxy.listen(tempDir("weft-net-")), scope)
      expect(fs.statSync(listener.socketPath).mode & 0o777).toBe(0o600)
      const closed = yield* Effect.callback<string>((resume) => {
        const socket = net.connect(listener.socketPath)
        socket.on("data", (chunk: Buffer) => {
          // the tunnel is open: now close the listener under it
          if (chunk.toString().startsWith("HTTP/1.1 200")) Effect.runFork(Scope.close(scope, Exit.void))
        })
        socket.on("close", () => resume(Effect.succeed("closed")))
        socket.write(`CONNECT 127.0.0.1:${server.port} HTTP/1.1\r\n\r\n`)
      })
      expect(closed).toBe("closed")
      expect(fs.existsSync(listener.socketPath)).toBe(false)
    })
  )

  it.live("a client that leaves while its tunnel is being made does not leave the upstream connection open", () =>
    Effect.gen(function* () {
      // An origin that reports when a connection to it closes.
      const upstreamClosed = yield* Deferred.make<void>()
      const originPort = yield* Effect.acquireRelease(
        Effect.callback<{ readonly server: net.Server; readonly port: number }>((resume) => {
          const server = net.createServer((socket) => {
            socket.on("error", () => socket.destroy())
            socket.on("close", () => Deferred.doneUnsafe(upstreamClosed, Effect.void))
          })
          server.listen(0, "127.0.0.1", () => {
            const address = server.address()
            resume(Effect.succeed({ server, port: typeof address === "object" && address !== null ? address.port : 0 }))
          })
        }),
        ({ server }) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
      )
      // The name resolves only once the client has gone.
      const clientGone = yield* Deferred.make<void>()
      const lookup: Lookup = () => Effect.as(Deferred.await(clientGone), ["127.0.0.1"])
      const { listener } = yield* proxyWith(policy(["slow.test", "127.0.0.1"]), lookup)
      yield* Effect.callback<void>((resume) => {
        const socket = net.connect(listener.socketPath, () => {
          socket.write(`CONNECT slow.test:${originPort.port} HTTP/1.1\r\n\r\n`)
          // Give the proxy the request, then leave.
          setImmediate(() => socket.destroy())
        })
        socket.on("close", () => resume(Effect.void))
      })
      yield* Deferred.succeed(clientGone, undefined)
      yield* Deferred.await(upstreamClosed)
    })
  )

  it.live("repeated refusals are counted and distinct ones bounded", () =>
    Effect.gen(function* () {
      const { listener } = yield* proxyWith(policy([]))
      yield* Effect.forEach(Array.from({ length: MAX_VIOLATIONS + 5 }, (_, i) => i), (i) =>
        viaConnect(listener.socketPath, `host${i}.test:443`)
      )
      expect(yield* listener.violations).toHaveLength(MAX_VIOLATIONS)
    })
  )
})

describe("formatViolations", () => {
  it("is empty without violations, else one line per refusal in a <sandbox_violations> block", () => {
    expect(formatViolations([])).toBe("")
    expect(
      formatViolations([
        { host: "example.org", port: 443, reason: "unlisted", message: "example.org is not in sandbox.network.allowedDomains", count: 1 },
        { host: "::1", port: 80, reason: "unlisted", message: "[::1] is not in sandbox.network.allowedDomains", count: 3 }
      ])
    ).toBe(
      "<sandbox_violations>\n" +
        "network: refused example.org:443 (example.org is not in sandbox.network.allowedDomains)\n" +
        "network: refused [::1]:80 x3 ([::1] is not in sandbox.network.allowedDomains)\n" +
        "</sandbox_violations>"
    )
  })
})
