/**
 * weft's network proxy for sandboxed commands: the only way out of a sandbox's network namespace. Each command gets a
 * listener of its own, a unix socket the sandbox binds in (NetworkBridge forwards 127.0.0.1:<port> inside to it),
 * so the hosts it was refused are its own to report.
 *
 * On one socket it speaks HTTP CONNECT (any port: the policy decides), plain HTTP in absolute form
 * (`GET http://host/path`, one upstream connection per request, the checked host as `Host`; upgrades such as
 * WebSocket relayed) and SOCKS5 (no authentication, CONNECT; a first byte 0x05 tells it apart). Every target is checked by NetworkPolicy: the lists first, then the name is resolved
 * here, on the host side, with the `Lookup` given (tests give a table: no real DNS), and the proxy connects to an
 * address that passed, never to the name. A refusal is a `403 Forbidden` whose body names the reason (SOCKS5:
 * "not allowed by ruleset") and a `Violation` on the listener; an upstream that cannot be reached is a 502 and no
 * violation (it is not the policy's doing). Nothing widens the policy: no mode, flag or fallback lets an unlisted
 * host through.
 *
 * Built on node:net and node:http (as a parser only, never listening) rather than effect/http's server: CONNECT and
 * SOCKS5 need the raw client socket once the request head is read. Each connection is a fiber of the listener's
 * FiberSet; closing the listener's scope destroys its sockets and interrupts them.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import * as dns from "node:dns"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as nodePath from "node:path"
import * as Uuid from "../platform/Uuid.js"
import * as NetworkPolicy from "./NetworkPolicy.js"

export interface Violation {
  /** The host as the client named it (canonical form). */
  readonly host: string
  readonly port: number
  readonly reason: NetworkPolicy.RefusalReason
  /** One line naming why (the 403 body says the same). */
  readonly message: string
  /** Identical refusals are counted, not repeated. */
  readonly count: number
}

export interface Listener {
  /** This listener's unix socket, on the host. */
  readonly socketPath: string
  /** The refusals so far, in the order they first happened (at most MAX_VIOLATIONS distinct ones). */
  readonly violations: Effect.Effect<ReadonlyArray<Violation>>
}

/** A name the resolver could not resolve. */
export class LookupFailed extends Data.TaggedError("LookupFailed")<{ readonly host: string; readonly message: string }> {}

/** A listener could not be opened. */
export class NetworkProxyError extends Data.TaggedError("NetworkProxyError")<{ readonly message: string }> {}

/** Resolves a name to its addresses, on the host side. */
export type Lookup = (host: string) => Effect.Effect<ReadonlyArray<string>, LookupFailed>

export interface Options {
  readonly policy: NetworkPolicy.Policy
  /** Default: the system resolver (`dns.lookup`, every address). */
  readonly lookup?: Lookup | undefined
  /** How long a connection to an upstream address may take. Default 10 s. */
  readonly connectTimeoutMs?: number | undefined
}

export interface Interface {
  /**
   * Opens a listener for one command (a foreground command, or a background shell for its whole life): a unix
   * socket in `directory` (keep it short: a socket path has at most 107 bytes; and private to weft's user), with its
   * own record of refusals. Closing the scope closes the socket, ends its connections and removes the file.
   */
  readonly listen: (directory: string) => Effect.Effect<Listener, NetworkProxyError, Scope.Scope>
  readonly policy: Effect.Effect<NetworkPolicy.Policy>
  /** Replaces the policy (a rule added during the session); every listener's next request sees it. */
  readonly setPolicy: (policy: NetworkPolicy.Policy) => Effect.Effect<void>
}

/** Distinct refusals kept per listener; more are counted in the last line of the note only. */
export const MAX_VIOLATIONS = 50
/**
 * Bound on what a SOCKS5 client may send before its tunnel is open: the handshake (at most 2 + 255 + 4 + 1 + 255 +
 * 2 bytes) and whatever it sends early (a TLS ClientHello), kept and relayed once the tunnel opens.
 */
const SOCKS_MAX_BYTES = 64 * 1024

/** The system resolver: every address, in the resolver's order. */
export const lookupSystem: Lookup = (host) =>
  Effect.callback<ReadonlyArray<string>, LookupFailed>((resume) => {
    dns.lookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error !== null) resume(Effect.fail(new LookupFailed({ host, message: `${host}: ${error.code ?? error.message}` })))
      else resume(Effect.succeed(addresses.map((entry) => entry.address)))
    })
  })

/** A fixed table (for tests: no real DNS); a name not in it does not resolve. */
export const lookupStatic =
  (table: Readonly<Record<string, ReadonlyArray<string>>>): Lookup =>
  (host) => {
    const addresses = table[host]
    return addresses === undefined
      ? Effect.fail(new LookupFailed({ host, message: `${host}: ENOTFOUND` }))
      : Effect.succeed(addresses)
  }

/** The lines of the note for the model, one per refusal. */
export const formatViolationLines = (violations: ReadonlyArray<Violation>): ReadonlyArray<string> =>
  violations.map(
    (violation) =>
      `network: refused ${violation.host.includes(":") ? `[${violation.host}]` : violation.host}:${violation.port}` +
      `${violation.count > 1 ? ` x${violation.count}` : ""} (${violation.message})`
  )

/** The note the Bash tool appends to a command's result when the proxy refused something ("" when it did not). */
export const formatViolations = (violations: ReadonlyArray<Violation>): string =>
  violations.length === 0 ? "" : `<sandbox_violations>\n${formatViolationLines(violations).join("\n")}\n</sandbox_violations>`

type Authorization = NetworkPolicy.Decision | { readonly _tag: "Unresolved"; readonly message: string }

class ConnectFailed extends Data.TaggedError("ConnectFailed")<{ readonly message: string }> {}

/** Headers that belong to one hop and are not forwarded (RFC 9110 7.6.1), plus the proxy's own. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade"
])

const forwardedHeaders = (headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders => {
  const named = new Set(
    String(headers["connection"] ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
  )
  const out: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value
  }
  return out
}

const plainResponse = (status: number, reason: string, body: string): string =>
  `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`

/** The HTTP status of a target that is not allowed: refused by the policy, malformed, or not resolved. */
const statusOf = (decision: NetworkPolicy.Refused | { readonly _tag: "Unresolved" }): readonly [number, string] =>
  decision._tag === "Unresolved"
    ? [502, "Bad Gateway"]
    : decision.reason === "invalid-request"
      ? [400, "Bad Request"]
      : [403, "Forbidden"]

/** `host:port` of a CONNECT request (authority form; IPv6 in brackets), or undefined. */
const parseAuthority = (authority: string): { readonly host: string; readonly port: number } | undefined => {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority)
  if (match?.[1] === undefined || match[2] === undefined) return undefined
  return { host: match[1], port: Number(match[2]) }
}

export const make = (options: Options): Effect.Effect<Interface> =>
  Effect.gen(function* () {
    const lookup = options.lookup ?? lookupSystem
    const connectTimeoutMs = options.connectTimeoutMs ?? 10_000
    const state = yield* Ref.make({ policy: options.policy, compiled: NetworkPolicy.compile(options.policy) })

    const authorize = (rawHost: string, port: number): Effect.Effect<Authorization & { readonly host: string }> =>
      Effect.gen(function* () {
        const host = NetworkPolicy.canonicalHost(rawHost)
        if (host === undefined) {
          return {
            _tag: "Refused",
            reason: "invalid-request",
            message: `${JSON.stringify(rawHost)} is not a host name or IP address`,
            host: rawHost
          } as const
        }
        const { compiled } = yield* Ref.get(state)
        const first = NetworkPolicy.checkHost(compiled, host, port)
        if (first._tag !== "Resolve") return { ...first, host }
        return yield* lookup(host).pipe(
          Effect.map((addresses): Authorization => NetworkPolicy.checkAddresses(compiled, host, port, addresses)),
          Effect.catchTag("LookupFailed", (error) =>
            Effect.succeed<Authorization>({ _tag: "Unresolved", message: `could not resolve ${error.message}` })
          ),
          Effect.map((decision) => ({ ...decision, host }))
        )
      })

    /** A TCP connection to the first address that answers, closed with the scope. */
    const connectFirst = (addresses: ReadonlyArray<string>, port: number) =>
      Effect.acquireRelease(
        Effect.gen(function* () {
          let last = "no address"
          for (const address of addresses) {
            const attempt = yield* Effect.result(
              Effect.callback<net.Socket, ConnectFailed>((resume) => {
                const socket = net.connect({ host: address, port })
                // The real clock, as ProcessGroup's deadlines: a connection attempt must end under a test clock too.
                const timer = setTimeout(() => {
                  socket.destroy()
                  resume(Effect.fail(new ConnectFailed({ message: `${address}:${port}: timed out` })))
                }, connectTimeoutMs)
                socket.once("connect", () => {
                  clearTimeout(timer)
                  // From here an error shows as 'close' to whoever relays the socket; never as an uncaught error.
                  socket.removeAllListeners("error")
                  socket.on("error", () => socket.destroy())
                  resume(Effect.succeed(socket))
                })
                socket.once("error", (error: NodeJS.ErrnoException) => {
                  clearTimeout(timer)
                  socket.destroy()
                  resume(Effect.fail(new ConnectFailed({ message: `${address}:${port}: ${error.code ?? error.message}` })))
                })
                return Effect.sync(() => {
                  clearTimeout(timer)
                  socket.destroy()
                })
              })
            )
            if (attempt._tag === "Success") return attempt.success
            last = attempt.failure.message
          }
          return yield* new ConnectFailed({ message: last })
        }),
        (socket) => Effect.sync(() => socket.destroy())
      )

    /** Waits until both sockets of a tunnel are closed, copying between them. */
    const relay = (client: net.Socket, upstream: net.Socket): Effect.Effect<void> =>
      Effect.callback<void>((resume) => {
        let open = 2
        const closed = () => {
          open -= 1
          if (open === 0) resume(Effect.void)
        }
        for (const [from, to] of [
          [client, upstream],
          [upstream, client]
        ] as const) {
          // A side that went away while the upstream connection was being made has no 'close' left to wait for.
          if (from.destroyed) {
            to.destroy()
            closed()
            continue
          }
          from.on("error", () => to.destroy())
          from.once("close", () => {
            to.end()
            closed()
          })
          from.pipe(to)
        }
      })

    const listen = Effect.fn("NetworkProxy.listen")(function* (directory: string) {
      const socketPath = nodePath.join(directory, `weft-net-${(yield* Uuid.v4).slice(0, 8)}.sock`)
      if (Buffer.byteLength(socketPath) > 107) {
        return yield* new NetworkProxyError({ message: `socket path too long (over 107 bytes): ${socketPath}` })
      }
      const runFork = yield* FiberSet.makeRuntime<never, void, never>()
      const violations = new Map<string, Violation>()
      const sockets = new Set<net.Socket>()

      const record = (host: string, port: number, refused: NetworkPolicy.Refused) =>
        Effect.sync(() => {
          const key = `${refused.reason}\u0000${host}\u0000${port}`
          const seen = violations.get(key)
          if (seen !== undefined) violations.set(key, { ...seen, count: seen.count + 1 })
          else if (violations.size < MAX_VIOLATIONS) {
            violations.set(key, { host, port, reason: refused.reason, message: refused.message, count: 1 })
          }
        })

      /** Authorizes a target, recording a refusal (a malformed target is the client's error, not a refusal). */
      const check = (rawHost: string, port: number) =>
        Effect.tap(authorize(rawHost, port), (decision) =>
          decision._tag === "Refused" && decision.reason !== "invalid-request" ? record(decision.host, port, decision) : Effect.void
        )

      const tunnel = (client: net.Socket, authority: string, head: Buffer) =>
        Effect.gen(function* () {
          const target = parseAuthority(authority)
          if (target === undefined) {
            client.end(plainResponse(400, "Bad Request", `weft sandbox: CONNECT needs host:port, not ${JSON.stringify(authority)}\n`))
            return
          }
          const decision = yield* check(target.host, target.port)
          if (decision._tag !== "Allowed") {
            const [status, reason] = statusOf(decision)
            client.end(plainResponse(status, reason, `weft sandbox: ${decision.message}\n`))
            return
          }
          const upstream = yield* connectFirst(decision.addresses, target.port).pipe(
            Effect.tapError((error) =>
              Effect.sync(() => client.end(plainResponse(502, "Bad Gateway", `weft sandbox: ${error.message}\n`)))
            )
          )
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
          if (head.length > 0) upstream.write(head)
          yield* relay(client, upstream)
        }).pipe(Effect.scoped, Effect.ignore)

      const forward = (request: http.IncomingMessage, response: http.ServerResponse) =>
        Effect.gen(function* () {
          const fail = (status: number, message: string) =>
            Effect.sync(() => {
              if (response.headersSent) response.destroy()
              else response.writeHead(status, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end(`weft sandbox: ${message}\n`)
            })
          let url: URL | undefined
          try {
            url = new URL(request.url ?? "")
          } catch {
            url = undefined
          }
          if (url === undefined || url.protocol !== "http:") {
            return yield* fail(400, "this is a proxy: send http:// URLs in absolute form, or CONNECT host:port for anything else")
          }
          const port = url.port === "" ? 80 : Number(url.port)
          const decision = yield* check(url.hostname, port)
          if (decision._tag !== "Allowed") return yield* fail(statusOf(decision)[0], decision.message)
          const upstream = yield* connectFirst(decision.addresses, port).pipe(
            Effect.tapError((error) => fail(502, error.message))
          )
          const headers = forwardedHeaders(request.headers)
          // The host that was checked, not the client's Host header: a different one would reach whatever else the
          // checked address serves (a CDN's other sites, a virtual host that is not listed).
          headers["host"] = url.host
          headers["connection"] = "close"
          yield* Effect.callback<void>((resume) => {
            const outgoing = http.request({
              method: request.method,
              path: `${url.pathname}${url.search}`,
              headers,
              // No agent: the connection is the one made to the checked address, used for this request only.
              createConnection: () => upstream
            })
            outgoing.on("response", (incoming) => {
              response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, forwardedHeaders(incoming.headers))
              incoming.pipe(response)
              incoming.on("error", () => response.destroy())
            })
            outgoing.on("error", (error: NodeJS.ErrnoException) => {
              if (response.headersSent) response.destroy()
              else response.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end(`weft sandbox: ${error.code ?? error.message}\n`)
            })
            response.once("close", () => resume(Effect.void))
            request.pipe(outgoing)
          })
        }).pipe(Effect.scoped, Effect.ignore)

      /** An HTTP upgrade (WebSocket over `ws://`) in absolute form: checked, then the head is sent on and the bytes relayed. */
      const upgrade = (request: http.IncomingMessage, client: net.Socket, head: Buffer) =>
        Effect.gen(function* () {
          let url: URL | undefined
          try {
            url = new URL(request.url ?? "")
          } catch {
            url = undefined
          }
          if (url === undefined || (url.protocol !== "http:" && url.protocol !== "ws:")) {
            client.end(plainResponse(400, "Bad Request", "weft sandbox: send upgrades in absolute form (http://host/path)\n"))
            return
          }
          const port = url.port === "" ? 80 : Number(url.port)
          const decision = yield* check(url.hostname, port)
          if (decision._tag !== "Allowed") {
            const [status, reason] = statusOf(decision)
            client.end(plainResponse(status, reason, `weft sandbox: ${decision.message}\n`))
            return
          }
          const upstream = yield* connectFirst(decision.addresses, port).pipe(
            Effect.tapError((error) =>
              Effect.sync(() => client.end(plainResponse(502, "Bad Gateway", `weft sandbox: ${error.message}\n`)))
            )
          )
          const lines = [`${request.method ?? "GET"} ${url.pathname}${url.search} HTTP/1.1`]
          for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
            const name = request.rawHeaders[i] ?? ""
            if (!/^(proxy-|host$)/i.test(name)) lines.push(`${name}: ${request.rawHeaders[i + 1] ?? ""}`)
          }
          lines.splice(1, 0, `Host: ${url.host}`)
          upstream.write(`${lines.join("\r\n")}\r\n\r\n`)
          if (head.length > 0) upstream.write(head)
          yield* relay(client, upstream)
        }).pipe(Effect.scoped, Effect.ignore)

      const socks = (client: net.Socket) =>
        Effect.gen(function* () {
          const reader = bufferedReader(client)
          const greeting = yield* reader.take(2)
          const methods = yield* reader.take(greeting[1] ?? 0)
          if (!methods.includes(0)) {
            client.end(Buffer.from([5, 0xff]))
            return
          }
          client.write(Buffer.from([5, 0]))
          const request = yield* reader.take(4)
          const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0])
          let host: string
          if (request[3] === 1) host = [...(yield* reader.take(4))].join(".")
          else if (request[3] === 4) {
            const bytes = yield* reader.take(16)
            host = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16)).join(":")
          } else if (request[3] === 3) host = (yield* reader.take((yield* reader.take(1))[0] ?? 0)).toString("latin1")
          else {
            client.end(reply(8)) // address type not supported
            return
          }
          const port = (yield* reader.take(2)).readUInt16BE(0)
          if (request[0] !== 5 || request[1] !== 1) {
            client.end(reply(7)) // only CONNECT
            return
          }
          const decision = yield* check(host, port)
          if (decision._tag !== "Allowed") {
            // 2: not allowed by ruleset; 4: host unreachable; 1: general failure (a malformed target)
            client.end(reply(decision._tag === "Unresolved" ? 4 : decision.reason === "invalid-request" ? 1 : 2))
            return
          }
          const upstream = yield* connectFirst(decision.addresses, port).pipe(
            Effect.tapError(() => Effect.sync(() => client.end(reply(5))))
          )
          client.write(reply(0))
          const rest = reader.release()
          if (rest.length > 0) upstream.write(rest)
          yield* relay(client, upstream)
        }).pipe(Effect.scoped, Effect.ignore)

      // node:http parses requests on sockets handed to it; it never listens itself.
      const parser = http.createServer()
      parser.on("request", (request, response) => {
        runFork(forward(request, response))
      })
      parser.on("connect", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
        runFork(tunnel(client, request.url ?? "", head))
      })
      parser.on("upgrade", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
        runFork(upgrade(request, client, head))
      })
      parser.on("clientError", (_error, socket: net.Socket) => {
        socket.end(plainResponse(400, "Bad Request", "weft sandbox: malformed request\n"))
      })

      const server = net.createServer((socket) => {
        sockets.add(socket)
        socket.once("close", () => sockets.delete(socket))
        socket.on("error", () => socket.destroy())
        socket.once("data", (chunk: Buffer) => {
          socket.pause()
          socket.unshift(chunk)
          if (chunk[0] === 5) runFork(socks(socket))
          else {
            parser.emit("connection", socket)
            socket.resume()
          }
        })
      })

      yield* Effect.acquireRelease(
        Effect.callback<void, NetworkProxyError>((resume) => {
          server.once("error", (error) =>
            resume(Effect.fail(new NetworkProxyError({ message: `cannot listen on ${socketPath}: ${error.message}` })))
          )
          server.listen(socketPath, () => {
            // Only weft's user may connect (the directory should be private too).
            fs.chmodSync(socketPath, 0o600)
            resume(Effect.void)
          })
        }),
        () =>
          Effect.callback<void>((resume) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => resume(Effect.void))
          }).pipe(Effect.andThen(Effect.sync(() => fs.rmSync(socketPath, { force: true }))))
      )

      return {
        socketPath,
        violations: Effect.sync(() => [...violations.values()])
      } satisfies Listener
    })

    return {
      listen,
      policy: Effect.map(Ref.get(state), (current) => current.policy),
      setPolicy: Effect.fn("NetworkProxy.setPolicy")(function* (policy: NetworkPolicy.Policy) {
        yield* Ref.set(state, { policy, compiled: NetworkPolicy.compile(policy) })
      })
    } satisfies Interface
  })

/** Reads exact byte counts from a socket (for SOCKS5), keeping what arrives beyond them. */
const bufferedReader = (socket: net.Socket) => {
  let buffered = Buffer.alloc(0)
  let waiting: (() => void) | undefined
  let ended = false
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    if (buffered.length > SOCKS_MAX_BYTES) socket.destroy()
    waiting?.()
  }
  const onEnd = () => {
    ended = true
    waiting?.()
  }
  socket.on("data", onData)
  socket.once("end", onEnd)
  socket.once("close", onEnd)
  socket.resume()
  return {
    take: (count: number): Effect.Effect<Buffer, ConnectFailed> =>
      Effect.callback<Buffer, ConnectFailed>((resume) => {
        const attempt = () => {
          if (buffered.length >= count) {
            waiting = undefined
            const taken = buffered.subarray(0, count)
            buffered = buffered.subarray(count)
            resume(Effect.succeed(taken))
          } else if (ended) {
            waiting = undefined
            resume(Effect.fail(new ConnectFailed({ message: "the client closed the connection" })))
          }
        }
        waiting = attempt
        attempt()
      }),
    /** Stops reading; returns what arrived beyond the handshake. */
    release: (): Buffer => {
      socket.off("data", onData)
      socket.off("end", onEnd)
      socket.off("close", onEnd)
      socket.pause()
      return buffered
    }
  }
}

export class NetworkProxy extends Context.Service<NetworkProxy, Interface>()("weft/NetworkProxy") {
  static make = make
  static layer = (options: Options): Layer.Layer<NetworkProxy> => Layer.effect(NetworkProxy, make(options))
}

export const layer = NetworkProxy.layer
