/**
 * The sandbox's network policy, pure: entry syntax, deny winning, the check after resolution (a listed name that
 * resolves to loopback or a private address is refused unless that address is listed literally), IP literals in
 * their odd spellings, and ports.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  canonicalHost,
  checkHost,
  compile,
  decide,
  empty,
  isNonPublic,
  listedLoopback,
  merge,
  type Policy,
  validate
} from "../../src/sandbox/NetworkPolicy.js"

const policy = (allowedDomains: ReadonlyArray<string>, deniedDomains: ReadonlyArray<string> = []): Policy => ({
  allowedDomains,
  deniedDomains
})

const PUBLIC = ["93.184.215.14"]

const tagOf = (allowed: Policy, host: string, port = 443, resolved: ReadonlyArray<string> = PUBLIC) => {
  const decision = decide(allowed, host, port, resolved)
  return decision._tag === "Allowed" ? "allowed" : decision.reason
}

describe("canonicalHost", () => {
  it.each([
    ["Example.COM", "example.com"],
    ["example.com.", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["2130706433", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["[::1]", "::1"],
    ["::1", "::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["[::ffff:127.0.0.1]", "127.0.0.1"],
    ["::ffff:7f00:1", "127.0.0.1"],
    ["[2001:DB8::1]", "2001:db8::1"]
  ])("%s -> %s", (raw, canonical) => {
    expect(canonicalHost(raw)).toBe(canonical)
  })

  it.each(["", "a b", "user@example.com", "example.com/x", "example.com:443", "[example.com]", "a..b", "."])(
    "%j is not a host",
    (raw) => {
      expect(canonicalHost(raw)).toBeUndefined()
    }
  )
})

describe("the lists", () => {
  it("nothing is allowed by the empty policy", () => {
    expect(tagOf(empty, "example.com")).toBe("unlisted")
    expect(tagOf(empty, "127.0.0.1")).toBe("unlisted")
  })

  it("a name allows that host only, any port; its subdomains need *.", () => {
    const allowed = policy(["example.com"])
    expect(tagOf(allowed, "example.com")).toBe("allowed")
    expect(tagOf(allowed, "EXAMPLE.com.", 8080)).toBe("allowed")
    expect(tagOf(allowed, "api.example.com")).toBe("unlisted")
    expect(tagOf(allowed, "notexample.com")).toBe("unlisted")
    expect(tagOf(allowed, "example.com.evil.test")).toBe("unlisted")
  })

  it("*.domain allows the subdomains at any depth, not the apex nor look-alikes", () => {
    const allowed = policy(["*.example.com"])
    expect(tagOf(allowed, "api.example.com")).toBe("allowed")
    expect(tagOf(allowed, "a.b.example.com")).toBe("allowed")
    expect(tagOf(allowed, "example.com")).toBe("unlisted")
    expect(tagOf(allowed, "evilexample.com")).toBe("unlisted")
  })

  it("deniedDomains win over allowedDomains, by name, pattern and address", () => {
    const allowed = policy(["*.example.com", "example.com", "10.0.0.0/8"], ["secret.example.com", "*.internal.example.com", "10.1.0.0/16"])
    expect(tagOf(allowed, "www.example.com")).toBe("allowed")
    expect(tagOf(allowed, "secret.example.com")).toBe("denied")
    expect(tagOf(allowed, "a.internal.example.com")).toBe("denied")
    expect(tagOf(allowed, "10.2.3.4")).toBe("allowed")
    expect(tagOf(allowed, "10.1.3.4")).toBe("denied")
    // A listed name that resolves only to a denied address is refused as denied.
    expect(tagOf(allowed, "www.example.com", 443, ["10.1.0.9"])).toBe("denied")
  })

  it("an IDN entry matches the punycode host and the Unicode one", () => {
    const allowed = policy(["bücher.de"])
    expect(tagOf(allowed, "xn--bcher-kva.de")).toBe("allowed")
    expect(tagOf(allowed, "BÜCHER.de")).toBe("allowed")
  })

  it("merge is the union of each list", () => {
    expect(merge(policy(["a.test"], ["b.test"]), policy(["a.test", "c.test"]))).toEqual(policy(["a.test", "c.test"], ["b.test"]))
  })

  it("an entry that cannot be read matches nothing and is reported", () => {
    const bad = policy(["*", "exa mple.com", "example.com:99999", "*.10.0.0.1", "10.0.0.0/33", "ok.test"])
    expect(validate(bad).map((entry) => entry.entry)).toEqual(["*", "exa mple.com", "example.com:99999", "*.10.0.0.1", "10.0.0.0/33"])
    expect(compile(bad).allowed).toHaveLength(1)
    expect(tagOf(bad, "anything.test")).toBe("unlisted")
  })
})

describe("ports", () => {
  it("an entry with :port covers that port only", () => {
    const allowed = policy(["example.com:443", "localhost:5173", "[::1]:8080", "10.0.0.0/8:5432"])
    expect(tagOf(allowed, "example.com", 443)).toBe("allowed")
    expect(tagOf(allowed, "example.com", 22)).toBe("unlisted")
    expect(tagOf(allowed, "localhost", 5173)).toBe("allowed")
    expect(tagOf(allowed, "localhost", 5174)).toBe("unlisted")
    expect(tagOf(allowed, "::1", 8080)).toBe("allowed")
    expect(tagOf(allowed, "::1", 8081)).toBe("unlisted")
    expect(tagOf(allowed, "10.9.9.9", 5432)).toBe("allowed")
    expect(tagOf(allowed, "10.9.9.9", 5433)).toBe("unlisted")
  })

  it("says when another port of the host is allowed", () => {
    const decision = decide(policy(["example.com:443"]), "example.com", 22)
    expect(decision).toMatchObject({ _tag: "Refused", reason: "unlisted", message: expect.stringContaining("port 22") })
  })

  it("a denied port leaves the others", () => {
    const allowed = policy(["example.com"], ["example.com:25"])
    expect(tagOf(allowed, "example.com", 25)).toBe("denied")
    expect(tagOf(allowed, "example.com", 443)).toBe("allowed")
  })

  it.each([0, 65536, -1, 1.5])("port %d is refused", (port) => {
    expect(tagOf(policy(["example.com"]), "example.com", port)).toBe("invalid-request")
  })
})

describe("after resolution", () => {
  it("a listed name that resolves to loopback is refused unless loopback is listed literally", () => {
    expect(tagOf(policy(["app.test"]), "app.test", 80, ["127.0.0.1"])).toBe("private-address")
    expect(tagOf(policy(["app.test"]), "app.test", 80, ["::1"])).toBe("private-address")
    expect(tagOf(policy(["app.test", "127.0.0.1"]), "app.test", 80, ["127.0.0.1"])).toBe("allowed")
    expect(tagOf(policy(["app.test", "127.0.0.0/8"]), "app.test", 80, ["127.0.0.2"])).toBe("allowed")
    // `localhost` listed is the name localhost, not every name that resolves to loopback.
    expect(tagOf(policy(["app.test", "localhost"]), "app.test", 80, ["127.0.0.1"])).toBe("private-address")
  })

  it.each([
    ["10.0.0.5"],
    ["172.16.0.1"],
    ["192.168.1.1"],
    ["169.254.169.254"],
    ["100.64.0.1"],
    ["0.0.0.0"],
    ["fd00::1"],
    ["fe80::1"],
    ["::"],
    ["::ffff:10.0.0.5"],
    ["64:ff9b::7f00:1"],
    ["224.0.0.1"]
  ])("a listed name resolving to %s is refused", (address) => {
    const decision = decide(policy(["app.test"]), "app.test", 80, [address])
    expect(decision).toMatchObject({ _tag: "Refused", reason: "private-address" })
    expect(decision._tag === "Refused" && decision.message).toContain("app.test resolves to")
  })

  it("only the addresses that pass are kept, in the resolver's order", () => {
    expect(decide(policy(["app.test"]), "app.test", 80, ["127.0.0.1", "93.184.215.14", "10.0.0.1", "2606:2800::1"])).toEqual({
      _tag: "Allowed",
      addresses: ["93.184.215.14", "2606:2800::1"]
    })
  })

  it("a name with no address is refused", () => {
    expect(tagOf(policy(["app.test"]), "app.test", 80, [])).toBe("invalid-request")
  })

  it("an unlisted name is refused before any resolution", () => {
    expect(checkHost(compile(policy(["a.test"])), "b.test", 443)).toMatchObject({ _tag: "Refused", reason: "unlisted" })
    expect(checkHost(compile(policy(["a.test"])), "a.test", 443)).toEqual({ _tag: "Resolve" })
  })
})

describe("IP literals and localhost", () => {
  it("an IP literal is allowed only by an IP or CIDR entry, in any spelling", () => {
    const allowed = policy(["127.0.0.1", "::1"])
    for (const host of ["127.0.0.1", "2130706433", "0x7f.1", "127.1", "[::1]", "::ffff:127.0.0.1"]) {
      expect(decide(allowed, host, 80)).toMatchObject({ _tag: "Allowed" })
    }
    expect(tagOf(allowed, "127.0.0.2", 80)).toBe("unlisted")
    expect(tagOf(policy(["localhost"]), "127.0.0.1", 80)).toBe("unlisted")
    expect(tagOf(policy(["example.com"]), "93.184.215.14", 80)).toBe("unlisted")
  })

  it("IPv6 networks, bracketed or not, with or without a port", () => {
    const allowed = policy(["fd00::/8", "[2001:db8::]/32:443"])
    expect(tagOf(allowed, "fd12::1", 80)).toBe("allowed")
    expect(tagOf(allowed, "[2001:db8::5]", 443)).toBe("allowed")
    expect(tagOf(allowed, "2001:db8::5", 80)).toBe("unlisted")
    expect(tagOf(allowed, "fe80::1", 80)).toBe("unlisted")
  })

  it("a listed IP literal connects to itself, private or not", () => {
    expect(decide(policy(["10.0.0.5"]), "10.0.0.5", 80)).toEqual({ _tag: "Allowed", addresses: ["10.0.0.5"] })
    expect(decide(policy(["[::1]"]), "[::1]", 80)).toEqual({ _tag: "Allowed", addresses: ["::1"] })
  })

  it("a listed localhost is loopback without a resolver", () => {
    expect(decide(policy(["localhost"]), "LOCALHOST.", 80, ["10.0.0.1"])).toEqual({
      _tag: "Allowed",
      addresses: ["127.0.0.1", "::1"]
    })
    expect(decide(policy(["localhost"], ["::1"]), "localhost", 80)).toEqual({ _tag: "Allowed", addresses: ["127.0.0.1"] })
    expect(tagOf(policy(["localhost"], ["127.0.0.0/8", "::1"]), "localhost", 80)).toBe("denied")
  })

  it("listedLoopback names the loopback spellings that go through the proxy", () => {
    expect(listedLoopback(policy(["example.com"]))).toEqual([])
    expect(listedLoopback(policy(["localhost:3000"]))).toEqual(["localhost"])
    expect(listedLoopback(policy(["127.0.0.0/8", "[::1]"]))).toEqual(["127.0.0.1", "::1"])
  })

  it("isNonPublic", () => {
    expect(isNonPublic("127.0.0.1")).toBe(true)
    expect(isNonPublic("::ffff:192.168.0.1")).toBe(true)
    expect(isNonPublic("93.184.215.14")).toBe(false)
    expect(isNonPublic("2606:2800:220:1::")).toBe(false)
  })
})
