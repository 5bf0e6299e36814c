/**
 * Which hosts a sandboxed command may reach through weft's network proxy: `sandbox.network.allowedDomains` and
 * `deniedDomains` as Claude Code spells them, checked by host AFTER resolution. Pure: the proxy (NetworkProxy)
 * resolves names and connects; this module decides.
 *
 * Entries (both lists): `example.com` (that host only), `*.example.com` (its subdomains, not the apex), an IP literal
 * (`127.0.0.1`, `::1`, `[::1]`), a CIDR (`10.0.0.0/8`), `localhost`; any of them may end in `:port` to cover that
 * port only. Hosts are compared in canonical form (lower case, IDN as punycode, one trailing dot dropped, the
 * numeric IPv4 spellings `2130706433` and `0x7f.1` as `127.0.0.1`, IPv4-mapped IPv6 as IPv4).
 *
 * The order of the checks (deny always wins):
 *   1. a deniedDomains entry matches the host (or the IP literal) -> refused, `denied`;
 *   2. no allowedDomains entry matches host and port -> refused, `unlisted` (the name is never resolved: an unlisted
 *      name must not reach a resolver either, or DNS itself carries data out);
 *   3. the name is resolved on the host side; an address denied by an IP/CIDR entry is dropped, and so is a
 *      loopback, private, link-local, shared, unspecified, reserved or multicast address unless an IP/CIDR entry of
 *      allowedDomains lists it, or the host is the listed name `localhost` (loopback by definition, RFC 6761, and
 *      mapped to 127.0.0.1 and ::1 without a resolver). Nothing left -> refused. The proxy connects to an address
 *      that was kept, never to the name again, so the answer cannot change between the check and the connection.
 */
import * as net from "node:net"

export interface Policy {
  readonly allowedDomains: ReadonlyArray<string>
  readonly deniedDomains: ReadonlyArray<string>
}

/** Nothing is reachable. */
export const empty: Policy = { allowedDomains: [], deniedDomains: [] }

/** The union of each list, in order, without repeats (settings scopes, `WebFetch(domain:...)` allow rules). */
export const merge = (...policies: ReadonlyArray<Policy>): Policy => ({
  allowedDomains: [...new Set(policies.flatMap((policy) => policy.allowedDomains))],
  deniedDomains: [...new Set(policies.flatMap((policy) => policy.deniedDomains))]
})

export type RefusalReason = "denied" | "unlisted" | "private-address" | "invalid-request"

export interface Refused {
  readonly _tag: "Refused"
  readonly reason: RefusalReason
  /** One line, for the 403 body and the note the model reads. */
  readonly message: string
}

export interface Allowed {
  readonly _tag: "Allowed"
  /** The addresses the proxy may connect to, in the resolver's order. */
  readonly addresses: ReadonlyArray<string>
}

/** The name passed the lists: resolve it (its addresses are then checked by `checkAddresses`). */
export interface Resolve {
  readonly _tag: "Resolve"
}

export type Decision = Allowed | Refused

type Entry =
  | { readonly _tag: "Name"; readonly name: string; readonly subdomains: boolean; readonly port: number | undefined }
  | { readonly _tag: "Address"; readonly range: net.BlockList; readonly port: number | undefined }

export interface Compiled {
  readonly allowed: ReadonlyArray<Entry>
  readonly denied: ReadonlyArray<Entry>
  /** Entries that could not be read; they match nothing (never widened). */
  readonly invalid: ReadonlyArray<InvalidEntry>
}

export interface InvalidEntry {
  readonly list: "allowedDomains" | "deniedDomains"
  readonly entry: string
  readonly message: string
}

const familyOf = (address: string): "ipv4" | "ipv6" => (net.isIPv4(address) ? "ipv4" : "ipv6")

/** `::ffff:127.0.0.1` and `::ffff:7f00:1` -> `127.0.0.1`; other addresses as they are. */
const unmap = (address: string): string => {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (dotted?.[1] !== undefined) return dotted[1]
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address)
  if (hex?.[1] !== undefined && hex[2] !== undefined) {
    const high = parseInt(hex[1], 16)
    const low = parseInt(hex[2], 16)
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  return address
}

/** The canonical spelling of an IPv6 address (WHATWG's: compressed, lower case). */
const canonicalIpv6 = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1)

/**
 * A host as the policy compares it, or undefined when it is not a host name or IP address (an empty name, spaces,
 * `user@host`, a path). IP addresses come back bare (no brackets).
 */
export const canonicalHost = (raw: string): string | undefined => {
  const bracketed = /^\[(.*)\]$/.exec(raw)
  const inner = bracketed?.[1] ?? raw
  if (net.isIPv6(inner)) return unmap(canonicalIpv6(inner))
  if (bracketed !== null) return undefined
  // Characters WHATWG would read as URL structure rather than host (userinfo, port, path, query, fragment).
  if (inner === "" || /[\s/\\@?#:%[\]]/.test(inner)) return undefined
  let hostname: string
  try {
    hostname = new URL(`http://${inner}/`).hostname
  } catch {
    return undefined
  }
  if (hostname.startsWith("[")) return unmap(hostname.slice(1, -1))
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname
  return name === "" || name.includes("..") ? undefined : name
}

const parsePort = (text: string): number | undefined => {
  if (!/^\d{1,5}$/.test(text)) return undefined
  const port = Number(text)
  return port >= 1 && port <= 65535 ? port : undefined
}

/** A port as a request names it: an integer 1-65535, else undefined. */
export const validPort = (port: number): boolean => Number.isInteger(port) && port >= 1 && port <= 65535

type ParsedEntry = Entry | string

const parseEntry = (raw: string): ParsedEntry => {
  let text = raw.trim()
  if (text === "") return "empty entry"
  let port: number | undefined
  // `[v6]:port`, `host:port`, `cidr:port`; a bare IPv6 address has several colons and no port.
  const bracketPort = /^(\[[^\]]*\](?:\/\d+)?):(\d+)$/.exec(text)
  const hostPort = /^([^:]+):(\d+)$/.exec(text)
  const split = bracketPort ?? hostPort
  if (split?.[1] !== undefined && split[2] !== undefined) {
    port = parsePort(split[2])
    if (port === undefined) return `invalid port ${split[2]}`
    text = split[1]
  }
  const cidr = /^\[?([^\]/]+)\]?\/(\d{1,3})$/.exec(text)
  if (cidr?.[1] !== undefined && cidr[2] !== undefined) {
    const address = canonicalHost(cidr[1])
    const prefix = Number(cidr[2])
    if (address === undefined || net.isIP(address) === 0) return `invalid network address ${cidr[1]}`
    const family = familyOf(address)
    if (prefix > (family === "ipv4" ? 32 : 128)) return `invalid prefix length /${prefix}`
    const range = new net.BlockList()
    range.addSubnet(address, prefix, family)
    return { _tag: "Address", range, port }
  }
  const subdomains = text.startsWith("*.")
  const host = canonicalHost(subdomains ? text.slice(2) : text)
  if (host === undefined || host.includes("*")) return `not a host name, IP address or *.domain pattern`
  if (net.isIP(host) !== 0) {
    if (subdomains) return "a *. pattern needs a domain name, not an IP address"
    const range = new net.BlockList()
    range.addAddress(host, familyOf(host))
    return { _tag: "Address", range, port }
  }
  return { _tag: "Name", name: host, subdomains, port }
}

export const compile = (policy: Policy): Compiled => {
  const invalid: Array<InvalidEntry> = []
  const read = (list: "allowedDomains" | "deniedDomains") =>
    policy[list].flatMap((entry) => {
      const parsed = parseEntry(entry)
      if (typeof parsed === "string") {
        invalid.push({ list, entry, message: `sandbox.network.${list}: ${JSON.stringify(entry)}: ${parsed}` })
        return []
      }
      return [parsed]
    })
  return { allowed: read("allowedDomains"), denied: read("deniedDomains"), invalid }
}

/** The entries of a policy that could not be read, with a message each (for a settings warning). */
export const validate = (policy: Policy): ReadonlyArray<InvalidEntry> => compile(policy).invalid

const portMatches = (entry: Entry, port: number | undefined) =>
  entry.port === undefined || port === undefined || entry.port === port

const nameMatches = (entry: Entry, host: string, port: number | undefined): boolean =>
  entry._tag === "Name" &&
  portMatches(entry, port) &&
  (entry.subdomains ? host.endsWith(`.${entry.name}`) : host === entry.name)

const addressMatches = (entry: Entry, address: string, port: number | undefined): boolean =>
  entry._tag === "Address" && portMatches(entry, port) && entry.range.check(address, familyOf(address))

const matches = (entry: Entry, host: string, port: number | undefined): boolean =>
  net.isIP(host) === 0 ? nameMatches(entry, host, port) : addressMatches(entry, host, port)

/** Addresses a listed name must not lead to unless listed literally: everything that is not the public internet. */
const nonPublic = (() => {
  const list = new net.BlockList()
  for (const [address, prefix] of [
    ["0.0.0.0", 8], // "this network", unspecified
    ["10.0.0.0", 8],
    ["100.64.0.0", 10], // shared address space (CGNAT)
    ["127.0.0.0", 8],
    ["169.254.0.0", 16], // link-local, cloud metadata
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15], // benchmarking
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4] // reserved, broadcast
  ] as const) {
    list.addSubnet(address, prefix, "ipv4")
  }
  for (const [address, prefix] of [
    ["::", 128], // unspecified
    ["::1", 128],
    ["64:ff9b::", 96], // NAT64: may embed any IPv4 address
    ["2002::", 16], // 6to4: may embed any IPv4 address
    ["fc00::", 7], // unique local
    ["fe80::", 10], // link-local
    ["ff00::", 8] // multicast
  ] as const) {
    list.addSubnet(address, prefix, "ipv6")
  }
  return list
})()

/** Is an address outside the public internet (loopback, private, link-local, ...). */
export const isNonPublic = (address: string): boolean => {
  const bare = unmap(address)
  return nonPublic.check(bare, familyOf(bare))
}

const LOOPBACK_NAME = "localhost"
/** What `localhost` means, without asking a resolver (RFC 6761). */
export const localhostAddresses: ReadonlyArray<string> = ["127.0.0.1", "::1"]

const refused = (reason: RefusalReason, message: string): Refused => ({ _tag: "Refused", reason, message })

const show = (host: string) => (net.isIPv6(host) ? `[${host}]` : host)

/**
 * Steps 1 and 2, before any resolution: `host` must be canonical (`canonicalHost`). An IP literal or `localhost` that
 * passes is `Allowed` with its addresses at once; a name that passes must be resolved (`Resolve`).
 */
export const checkHost = (compiled: Compiled, host: string, port: number): Allowed | Refused | Resolve => {
  if (!validPort(port)) return refused("invalid-request", `port ${port} is not a valid port`)
  if (compiled.denied.some((entry) => matches(entry, host, port))) {
    return refused("denied", `${show(host)} is in sandbox.network.deniedDomains`)
  }
  if (!compiled.allowed.some((entry) => matches(entry, host, port))) {
    const otherPort = compiled.allowed.some((entry) => matches(entry, host, undefined))
    return refused(
      "unlisted",
      otherPort
        ? `port ${port} of ${show(host)} is not in sandbox.network.allowedDomains (other ports of it are)`
        : `${show(host)} is not in sandbox.network.allowedDomains`
    )
  }
  if (net.isIP(host) !== 0) return { _tag: "Allowed", addresses: [host] }
  if (host !== LOOPBACK_NAME) return { _tag: "Resolve" }
  const addresses = localhostAddresses.filter(
    (address) => !compiled.denied.some((entry) => addressMatches(entry, address, port))
  )
  return addresses.length > 0
    ? { _tag: "Allowed", addresses }
    : refused("denied", `${host} is loopback, which sandbox.network.deniedDomains lists`)
}

/** Step 3: the addresses a listed name resolved to, kept or dropped. */
export const checkAddresses = (
  compiled: Compiled,
  host: string,
  port: number,
  resolved: ReadonlyArray<string>
): Decision => {
  const addresses = resolved.map(unmap)
  const notDenied = addresses.filter((address) => !compiled.denied.some((entry) => addressMatches(entry, address, port)))
  const kept = notDenied.filter(
    (address) => !isNonPublic(address) || compiled.allowed.some((entry) => addressMatches(entry, address, port))
  )
  if (kept.length > 0) return { _tag: "Allowed", addresses: kept }
  const first = addresses[0]
  if (first === undefined) return refused("invalid-request", `${host} has no address`)
  if (notDenied.length === 0) return refused("denied", `${host} resolves to ${first}, which is in sandbox.network.deniedDomains`)
  return refused(
    "private-address",
    `${host} resolves to ${notDenied[0] ?? first}, a loopback or private address that sandbox.network.allowedDomains does not list`
  )
}

/** The whole check for a host whose resolution is already known (`resolved` is ignored for IPs and `localhost`). */
export const decide = (policy: Policy, host: string, port: number, resolved: ReadonlyArray<string> = []): Decision => {
  const canonical = canonicalHost(host)
  if (canonical === undefined) return refused("invalid-request", `${JSON.stringify(host)} is not a host name`)
  const compiled = compile(policy)
  const first = checkHost(compiled, canonical, port)
  return first._tag === "Resolve" ? checkAddresses(compiled, canonical, port, resolved) : first
}

/**
 * The loopback spellings a policy lists (so they go through the proxy, which connects on the host side); the
 * others are left to reach the sandbox's own loopback directly.
 */
export const listedLoopback = (policy: Policy): ReadonlyArray<string> => {
  const compiled = compile(policy)
  return ["localhost", "127.0.0.1", "::1"].filter((host) =>
    compiled.allowed.some((entry) => matches(entry, host, undefined))
  )
}
