/**
 * The Node transport of the ApiClient: @effect/platform-node's HttpClient over node:http and node:https, with
 * keep-alive agents made on first use. Kept apart from ApiClient.ts so that the library core (and a program that
 * brings its own HttpClient: fetch, undici, a test double) loads nothing from Node's HTTP stack. Requests go through
 * the proxies of HTTPS_PROXY / HTTP_PROXY unless NO_PROXY exempts their host (Proxy.ts).
 */
import * as HttpClient from "effect/http/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"
import * as Https from "node:https"
import { type Duplex, PassThrough } from "node:stream"
import * as Tls from "node:tls"
import { ApiClient, type ApiClientConfig, configFromEnv, type Interface, make as makeApiClient, makeWith as makeApiClientWith } from "./ApiClient.js"
import { Settings } from "../context/Settings.js"
import { ChildEnvironment } from "../platform/ChildEnvironment.js"
import { Credentials } from "../platform/Credentials.js"
import * as Variables from "../platform/Variables.js"
import * as Proxy from "./Proxy.js"

declare module "node:http" {
  interface Agent {
    /** Node's (undocumented in the types) hand-over of a request to the agent, before its head is written. */
    addRequest(request: Http.ClientRequest, options: Http.RequestOptions): void
  }
}

const hostForUrl = (host: string): string => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host)

const targetOf = (protocol: "http:" | "https:", options: Http.RequestOptions): URL =>
  new URL(`${protocol}//${hostForUrl(options.hostname ?? options.host ?? "localhost")}:${options.port ?? (protocol === "https:" ? 443 : 80)}`)

/**
 * http:// through a proxy: the request goes to the proxy in absolute form (`POST http://host:port/path`), with
 * Proxy-Authorization when the proxy URL has credentials. Direct when NO_PROXY says so.
 */
class ProxyHttpAgent extends Http.Agent {
  constructor(
    private readonly proxies: Proxy.ProxySettings,
    options: Http.AgentOptions
  ) {
    super(options)
  }
  override addRequest(request: Http.ClientRequest, options: Http.RequestOptions): void {
    const target = targetOf("http:", options)
    const proxy = Proxy.proxyFor(this.proxies, target)
    if (proxy === undefined) return super.addRequest(request, options)
    request.path = `${target.origin}${request.path}`
    const authorization = Proxy.proxyAuthorization(proxy)
    if (authorization !== undefined) request.setHeader("proxy-authorization", authorization)
    const host = Proxy.bareHost(proxy.hostname)
    super.addRequest(request, { ...options, host, hostname: host, port: Proxy.portOf(proxy) })
  }
  override createConnection(options: Http.ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    // The proxy may speak TLS itself (an https:// proxy URL).
    const proxy = this.proxies.http
    if (proxy !== undefined && proxy.protocol === "https:" && options.host === Proxy.bareHost(proxy.hostname)) {
      return Tls.connect({ host: options.host, port: Number(options.port), servername: proxy.hostname })
    }
    return super.createConnection(options, callback)
  }
}

/**
 * https:// through a proxy: a CONNECT tunnel to the target through the proxy, then TLS to the target inside it (the
 * certificate checked as on a direct connection: NODE_EXTRA_CA_CERTS applies). Direct when NO_PROXY says so.
 */
const makeProxyHttpsAgent = (proxies: Proxy.ProxySettings, agentOptions: Https.AgentOptions): Https.Agent => {
  // Declared on first use: reading Https.Agent loads node:https and node:tls, which a run over http:// never needs.
  class ProxyHttpsAgent extends Https.Agent {
    constructor(
      private readonly proxies: Proxy.ProxySettings,
      options: Https.AgentOptions
    ) {
      super(options)
    }
    override createConnection(options: Https.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
      const target = targetOf("https:", options)
      const proxy = Proxy.proxyFor(this.proxies, target)
      if (proxy === undefined || callback === undefined) return super.createConnection(options, callback)
      const authority = `${target.hostname}:${Proxy.portOf(target)}`
      const authorization = Proxy.proxyAuthorization(proxy)
      const connect = (proxy.protocol === "https:" ? Https : Http).request({
        host: Proxy.bareHost(proxy.hostname),
        port: Proxy.portOf(proxy),
        method: "CONNECT",
        path: authority,
        headers: { host: authority, ...(authorization === undefined ? {} : { "proxy-authorization": authorization }) },
        agent: false
      })
      connect.once("connect", (response, socket) => {
        if (response.statusCode !== 200) {
          socket.destroy()
          callback(new Error(`the proxy ${proxy.host} refused the tunnel to ${authority}: ${response.statusCode} ${response.statusMessage ?? ""}`.trim()), socket)
          return
        }
        const host = Proxy.bareHost(target.hostname)
        const tlsOptions: Tls.ConnectionOptions = { socket, host, servername: options.servername ?? (/^[\d.]+$|:/.test(host) ? "" : host) }
        if (options.ca !== undefined) tlsOptions.ca = options.ca
        if (options.rejectUnauthorized !== undefined) tlsOptions.rejectUnauthorized = options.rejectUnauthorized
        callback(null, Tls.connect(tlsOptions))
      })
      connect.once("error", (error) => callback(new Error(`could not reach the proxy ${proxy.host}: ${error.message}`), new PassThrough()))
      connect.end()
      return undefined
    }
  }
  return new ProxyHttpsAgent(proxies, agentOptions)
}

/**
 * NodeHttpClient's two agents, destroyed with the scope, each made on first use: an https agent needs node:https
 * and node:tls, about 5 ms of start-up that a session against an http:// server (a local one) never needs; the
 * binary's bundle loads those modules lazily (build-bin.mjs). Unlike NodeHttpClient's own agents they keep
 * connections alive (an idle one does not keep the process alive): a response read to its end (see ApiClient's
 * `drainMillis`) leaves its connection for the next request, so the turns of a session pay for one TLS handshake,
 * not one each. With proxies set (HTTPS_PROXY, HTTP_PROXY, NO_PROXY: see Proxy.ts) they go through them.
 */
const makeKeepAliveAgent = (proxies: Proxy.ProxySettings): Effect.Effect<NodeHttpClient.HttpAgent["Service"], never, Scope.Scope> =>
  Effect.gen(function* () {
    let http: Http.Agent | undefined
    let https: Https.Agent | undefined
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        http?.destroy()
        https?.destroy()
      })
    )
    const viaProxy = proxies.http !== undefined || proxies.https !== undefined
    return {
      get http() {
        return (http ??= viaProxy ? new ProxyHttpAgent(proxies, { keepAlive: true }) : new Http.Agent({ keepAlive: true }))
      },
      get https() {
        return (https ??= viaProxy ? makeProxyHttpsAgent(proxies, { keepAlive: true }) : new Https.Agent({ keepAlive: true }))
      }
    }
  })

/** The proxy variables (either case), read through the ConfigProvider in force (platform/Variables.ts). */
export const proxySettingsFromEnv: Effect.Effect<Proxy.ProxySettings> = Effect.map(
  Effect.all(
    ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"].map((name) =>
      Effect.map(Variables.value(name), (value) => [name, value] as const)
    )
  ),
  (pairs) => Proxy.settingsFrom(Proxy.envFrom(Object.fromEntries(pairs)))
)

/** @effect/platform-node's HttpClient over node:http and node:https with the agents above, made in the current scope. */
export const makeHttpClient: Effect.Effect<HttpClient.HttpClient, never, Scope.Scope> = Effect.flatMap(
  Effect.flatMap(proxySettingsFromEnv, makeKeepAliveAgent),
  (agent) => Effect.provideService(NodeHttpClient.makeNodeHttp, NodeHttpClient.HttpAgent, agent)
)

/** `makeHttpClient` as a layer. */
export const layerHttpClient: Layer.Layer<HttpClient.HttpClient> = Layer.effect(HttpClient.HttpClient, makeHttpClient)

/**
 * The ApiClient from the environment (ApiClient's `configFromEnv`), over `makeHttpClient` made in the current scope.
 * Chosen over the undici client: same streaming behaviour, and it needs no dispatcher start-up (the module imports
 * undici either way; a bundle drops it when only this is used).
 */
export const make: Effect.Effect<Interface, Config.ConfigError, Scope.Scope> = Effect.flatMap(makeHttpClient, (client) =>
  Effect.provideService(makeApiClient, HttpClient.HttpClient, client)
)

/** `make` as a layer: what a program on Node provides for ApiClient. */
export const layer: Layer.Layer<ApiClient, Config.ConfigError> = Layer.effect(ApiClient, make)

const nonBlank = (text: string | undefined): text is string => text !== undefined && text.trim() !== ""

/**
 * The client configured from the environment (with the settings' `env` laid over it: Variables) and from the
 * settings: `model` is the default model when ANTHROPIC_MODEL is not set (`--model` still chooses a run's), and
 * `apiKeyHelper` gives the key when neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set, as in Claude Code
 * (ApiKeyHelper.ts: its keys join the Credentials; it runs with ChildEnvironment's environment).
 */
export const makeFromSettings: Effect.Effect<Interface, Config.ConfigError, Scope.Scope | Settings | ChildEnvironment | Credentials> =
  Effect.gen(function* () {
    const settings = yield* Settings
    const fromEnv = yield* configFromEnv
    const model = settings.value.model
    const helper = settings.value.apiKeyHelper
    const config: ApiClientConfig = {
      ...fromEnv,
      ...(fromEnv.defaultModel === undefined && nonBlank(model) ? { defaultModel: model.trim() } : {}),
      ...(fromEnv.apiKey === undefined && fromEnv.authToken === undefined && nonBlank(helper)
        ? {
            keySource: yield* Effect.gen(function* () {
              const { make } = yield* Effect.promise(() => import("./ApiKeyHelper.js"))
              const children = yield* ChildEnvironment
              const credentials = yield* Credentials
              const origin = settings.sources.find((source) => source.settings.apiKeyHelper !== undefined)?.origin ?? "the settings"
              return yield* make({
                command: helper,
                origin,
                cwd: settings.projectDir,
                env: children.process(),
                onKey: credentials.add
              })
            })
          }
        : {})
    }
    const client = yield* makeHttpClient
    return yield* Effect.provideService(makeApiClientWith(config), HttpClient.HttpClient, client)
  })

/** `makeFromSettings` as a layer: the session's client (SessionServices). */
export const layerFromSettings: Layer.Layer<ApiClient, Config.ConfigError, Settings | ChildEnvironment | Credentials> = Layer.effect(
  ApiClient,
  makeFromSettings
)
