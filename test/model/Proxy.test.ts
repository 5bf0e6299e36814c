import { describe, expect, it } from "vitest"
import * as Proxy from "../../src/model/Proxy.js"

const settings = (env: Record<string, string>) => Proxy.settingsFrom(Proxy.envFrom(env))
const via = (env: Record<string, string>, url: string) => Proxy.proxyFor(settings(env), new URL(url))?.href

describe("Proxy", () => {
  it("HTTPS_PROXY for https, HTTP_PROXY for http (and for https when HTTPS_PROXY is unset), lower case first", () => {
    expect(via({ HTTPS_PROXY: "http://p:3128" }, "https://api.anthropic.com/v1")).toBe("http://p:3128/")
    expect(via({ HTTPS_PROXY: "http://p:3128" }, "http://example.com/")).toBeUndefined()
    expect(via({ HTTP_PROXY: "p:8080" }, "http://example.com/")).toBe("http://p:8080/")
    expect(via({ HTTP_PROXY: "p:8080" }, "https://example.com/")).toBe("http://p:8080/")
    expect(via({ https_proxy: "http://low:1", HTTPS_PROXY: "http://up:2" }, "https://example.com/")).toBe("http://low:1/")
    expect(via({}, "https://example.com/")).toBeUndefined()
  })
  it("NO_PROXY as curl: domains with their subdomains, leading dots and *., ports, IPs, *", () => {
    const base = { HTTPS_PROXY: "http://p:3128", HTTP_PROXY: "http://p:3128" }
    const noProxy = (value: string, url: string) => via({ ...base, NO_PROXY: value }, url) === undefined
    expect(noProxy("example.com", "https://example.com/")).toBe(true)
    expect(noProxy("example.com", "https://api.example.com/")).toBe(true)
    expect(noProxy(".example.com", "https://example.com/")).toBe(true)
    expect(noProxy("*.example.com", "https://a.b.example.com/")).toBe(true)
    expect(noProxy("example.com", "https://notexample.com/")).toBe(false)
    expect(noProxy("example.com:8443", "https://example.com:8443/")).toBe(true)
    expect(noProxy("example.com:8443", "https://example.com/")).toBe(false)
    expect(noProxy("example.com:443", "https://example.com/")).toBe(true)
    expect(noProxy("foo.com, 10.0.0.1 ,bar.org", "http://10.0.0.1:8080/")).toBe(true)
    expect(noProxy("[::1]", "http://[::1]:80/")).toBe(true)
    expect(noProxy("*", "https://anything.example/")).toBe(true)
    expect(noProxy("EXAMPLE.com", "https://Example.COM/")).toBe(true)
  })
  it("loopback goes through the proxy unless NO_PROXY names it (as curl and undici)", () => {
    expect(via({ HTTP_PROXY: "http://p:1" }, "http://127.0.0.1:9000/")).toBe("http://p:1/")
    expect(via({ HTTP_PROXY: "http://p:1" }, "http://localhost:9000/")).toBe("http://p:1/")
    expect(via({ HTTP_PROXY: "http://p:1", no_proxy: "localhost,127.0.0.1" }, "http://127.0.0.1:9000/")).toBeUndefined()
  })
  it("sends the proxy URL's credentials as Proxy-Authorization", () => {
    expect(Proxy.proxyAuthorization(new URL("http://user:p%40ss@p:1"))).toBe(`Basic ${btoa("user:p@ss")}`)
    expect(Proxy.proxyAuthorization(new URL("http://p:1"))).toBeUndefined()
  })
  it("gives a URL's port, the scheme's default where the URL drops it, and a bare IPv6 host for sockets", () => {
    expect([Proxy.portOf(new URL("https://p:443")), Proxy.portOf(new URL("http://p")), Proxy.portOf(new URL("https://p:8443"))]).toEqual([443, 80, 8443])
    expect([Proxy.bareHost(new URL("http://[::1]:3128").hostname), Proxy.bareHost("Proxy.Example")]).toEqual(["::1", "proxy.example"])
  })
})
