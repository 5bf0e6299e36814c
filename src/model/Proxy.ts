/**
 * Which proxy, if any, a request goes through: HTTPS_PROXY for https:// URLs (else HTTP_PROXY, as undici's
 * EnvHttpProxyAgent), HTTP_PROXY for http:// URLs, lower-case names first; NO_PROXY as curl reads it. Pure: the
 * Node transport (NodeApiClient) opens the tunnels.
 *
 * NO_PROXY is a list split on commas and spaces: `*` matches every host; `example.com`, `.example.com` and
 * `*.example.com` match the host and its subdomains; an entry with `:port` matches that port only; an IP address
 * matches itself. Loopback gets no special treatment (as curl and undici): 127.0.0.1 and localhost bypass the
 * proxy only when NO_PROXY names them.
 */

export interface ProxyEnv {
  readonly httpProxy?: string | undefined
  readonly httpsProxy?: string | undefined
  readonly noProxy?: string | undefined
}

interface NoProxyEntry {
  readonly host: string
  readonly port: number | undefined
}

export interface ProxySettings {
  readonly http: URL | undefined
  readonly https: URL | undefined
  /** `*`: no proxy at all. */
  readonly bypassAll: boolean
  readonly noProxy: ReadonlyArray<NoProxyEntry>
}

/** Reads the variables as curl and Node's own proxy support do: lower case first, then upper case. */
export const envFrom = (env: Readonly<Record<string, string | undefined>>): ProxyEnv => {
  const pick = (name: string) => {
    const value = env[name.toLowerCase()] ?? env[name.toUpperCase()]
    return value === undefined || value.trim() === "" ? undefined : value.trim()
  }
  return { httpProxy: pick("http_proxy"), httpsProxy: pick("https_proxy"), noProxy: pick("no_proxy") }
}

/** A proxy URL as users write it (`http://user:pass@host:3128`, or `host:3128` with no scheme); undefined if invalid. */
export const parseProxyUrl = (value: string): URL | undefined => {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  try {
    const url = new URL(withScheme)
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined
  } catch {
    return undefined
  }
}

const defaultPort = (protocol: string): number => (protocol === "https:" ? 443 : 80)

/** A URL's port as a number, the scheme's default when the URL leaves it out (`new URL` drops a default port). */
export const portOf = (url: URL): number => (url.port === "" ? defaultPort(url.protocol) : Number(url.port))

/** `[::1]` -> `::1` (a URL's `hostname` keeps the brackets; sockets take the bare address); lower case. */
export const bareHost = (host: string): string => host.toLowerCase().replace(/^\[(.*)\]$/, "$1")

const parseEntry = (raw: string): NoProxyEntry | undefined => {
  let entry = raw.trim().toLowerCase()
  if (entry === "") return undefined
  let port: number | undefined
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
  if (bracketed) {
    entry = bracketed[1] ?? ""
    port = bracketed[2] === undefined ? undefined : Number(bracketed[2])
  } else {
    // host:port (one colon only: a bare IPv6 address has several)
    const hostPort = /^([^:]+):(\d+)$/.exec(entry)
    if (hostPort) {
      entry = hostPort[1] ?? ""
      port = Number(hostPort[2])
    }
  }
  entry = entry.replace(/^\*?\./, "")
  return entry === "" ? undefined : { host: entry, port }
}

export const settingsFrom = (env: ProxyEnv): ProxySettings => {
  const http = env.httpProxy === undefined ? undefined : parseProxyUrl(env.httpProxy)
  const https = env.httpsProxy === undefined ? http : (parseProxyUrl(env.httpsProxy) ?? http)
  const entries = (env.noProxy ?? "").split(/[\s,]+/)
  return {
    http,
    https,
    bypassAll: entries.some((entry) => entry.trim() === "*"),
    noProxy: entries.flatMap((entry) => {
      const parsed = parseEntry(entry)
      return parsed === undefined ? [] : [parsed]
    })
  }
}

/** Whether NO_PROXY exempts `host` on `port`. */
export const bypasses = (settings: ProxySettings, host: string, port: number): boolean => {
  if (settings.bypassAll) return true
  const name = bareHost(host)
  return settings.noProxy.some(
    (entry) => (entry.port === undefined || entry.port === port) && (name === entry.host || name.endsWith(`.${entry.host}`))
  )
}

/** The proxy for a request to `url`, or undefined to go direct. */
export const proxyFor = (settings: ProxySettings, url: URL): URL | undefined => {
  const proxy = url.protocol === "https:" ? settings.https : url.protocol === "http:" ? settings.http : undefined
  if (proxy === undefined) return undefined
  return bypasses(settings, url.hostname, portOf(url)) ? undefined : proxy
}

/** `Proxy-Authorization` for a proxy URL with credentials. */
export const proxyAuthorization = (proxy: URL): string | undefined =>
  proxy.username === "" && proxy.password === ""
    ? undefined
    : `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`)))}`
