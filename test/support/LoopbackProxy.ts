/**
 * A forward proxy on 127.0.0.1 for tests: absolute-form http requests are forwarded, CONNECT opens a TCP tunnel.
 * It records what it was asked (method and target), and a TLS front that terminates TLS before a plain server,
 * so an https:// target can be reached through the proxy's CONNECT.
 */
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Net from "node:net"
import * as Path from "node:path"
import * as Tls from "node:tls"

export interface ProxyRequest {
  readonly method: string
  /** The absolute URL (forwarded requests) or host:port (CONNECT). */
  readonly target: string
  readonly proxyAuthorization: string | undefined
}

export interface LoopbackProxy {
  readonly url: string
  readonly requests: ReadonlyArray<ProxyRequest>
  readonly close: () => Promise<void>
}

const listen = (server: Net.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve(typeof address === "object" && address !== null ? address.port : 0)
    })
  )

const closing = (server: Net.Server, sockets: Set<Net.Socket>) => () =>
  new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy()
    server.close(() => resolve())
  })

const tracked = (server: Net.Server) => {
  const sockets = new Set<Net.Socket>()
  server.on("connection", (socket: Net.Socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  return sockets
}

export const startLoopbackProxy = async (): Promise<LoopbackProxy> => {
  const requests: Array<ProxyRequest> = []
  const tunnels = new Set<Net.Socket>()
  const server = Http.createServer((req, res) => {
    requests.push({ method: req.method ?? "", target: req.url ?? "", proxyAuthorization: req.headers["proxy-authorization"] })
    let target: URL
    try {
      target = new URL(req.url ?? "")
    } catch {
      res.writeHead(400).end("absolute-form request expected")
      return
    }
    const headers = { ...req.headers }
    delete headers["proxy-authorization"]
    const upstream = Http.request(
      { host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on("error", () => res.destroy())
    req.pipe(upstream)
  })
  server.on("connect", (req: Http.IncomingMessage, client: Net.Socket, head: Buffer) => {
    requests.push({ method: "CONNECT", target: req.url ?? "", proxyAuthorization: req.headers["proxy-authorization"] })
    const [host, port] = (req.url ?? "").split(":")
    const upstream = Net.connect(Number(port), host ?? "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    tunnels.add(upstream)
    tunnels.add(client)
    const end = () => {
      upstream.destroy()
      client.destroy()
    }
    upstream.on("error", end).on("close", end)
    client.on("error", end).on("close", end)
  })
  const sockets = tracked(server)
  const port = await listen(server)
  const closeServer = closing(server, sockets)
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      for (const socket of tunnels) socket.destroy()
      return closeServer()
    }
  }
}

export const tlsFixtures = Path.resolve(import.meta.dirname, "../fixtures/tls")
/** The self-signed certificate of 127.0.0.1 (see test/fixtures/tls/SOURCES.md), for NODE_EXTRA_CA_CERTS. */
export const certificatePath = Path.join(tlsFixtures, "localhost-cert.pem")

/** A TLS server on 127.0.0.1 that hands each connection's plain bytes to `targetPort` (an http server). */
export const startTlsFront = async (targetPort: number): Promise<{ readonly url: string; readonly close: () => Promise<void> }> => {
  const server = Tls.createServer(
    { key: Fs.readFileSync(Path.join(tlsFixtures, "localhost-key.pem")), cert: Fs.readFileSync(certificatePath) },
    (socket) => {
      const upstream = Net.connect(targetPort, "127.0.0.1")
      socket.pipe(upstream).pipe(socket)
      const end = () => {
        upstream.destroy()
        socket.destroy()
      }
      upstream.on("error", end)
      socket.on("error", end)
    }
  )
  const sockets = tracked(server)
  server.on("secureConnection", (socket: Tls.TLSSocket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  const port = await listen(server)
  return { url: `https://127.0.0.1:${port}`, close: closing(server, sockets) }
}
