import { afterEach, describe, expect, it } from "vitest"
import { startMockAnthropicServer, type StartedMockServer } from "../../src/testing/MockAnthropicServer.js"
import { Fault, type Script, ScriptTurn, text, textTurn } from "../../src/testing/Script.js"
import { certificatePath, startLoopbackProxy, startTlsFront } from "../support/LoopbackProxy.js"
import { frames, makeProject, runWeft } from "./harness.js"

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const setup = async (script: Script, extraEnv: Readonly<Record<string, string>> = {}) => {
  const project = await makeProject({})
  cleanups.push(project.cleanup)
  const server: StartedMockServer = await startMockAnthropicServer({ script })
  cleanups.push(server.close)
  const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "test-key", WEFT_HOME: project.home, ...extraEnv }
  return { ...project, server, env }
}

describe("weft -p when the API server fails (retries and timeouts)", () => {
  it("retries 529 and 429 as the server asks, each retry an api_retry frame, and succeeds", async () => {
    const { dir, env, server } = await setup([
      ScriptTurn.blocks([text("Done after the retries.")], {
        faults: [
          Fault.status(529, { headers: { "retry-after-ms": "5" }, times: 2 }),
          Fault.status(429, { headers: { "retry-after-ms": "5" } })
        ]
      })
    ])
    const out = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose"], { cwd: dir, env })
    expect(out.code).toBe(0)
    expect(server.requests().length).toBe(4)
    const retries = frames(out.stdout).filter((frame) => frame["subtype"] === "api_retry")
    expect(retries.map(({ uuid: _uuid, session_id: _session, ...rest }) => rest)).toEqual([
      { type: "system", subtype: "api_retry", attempt: 1, max_retries: 10, retry_delay_ms: 5, error_status: 529, error: "server_error" },
      { type: "system", subtype: "api_retry", attempt: 2, max_retries: 10, retry_delay_ms: 5, error_status: 529, error: "server_error" },
      { type: "system", subtype: "api_retry", attempt: 3, max_retries: 10, retry_delay_ms: 5, error_status: 429, error: "rate_limit" }
    ])
    const init = frames(out.stdout)[0]
    expect(retries.every((frame) => frame["session_id"] === init?.["session_id"])).toBe(true)
    expect(frames(out.stdout).at(-1)).toMatchObject({ type: "result", is_error: false, result: "Done after the retries." })
  })

  it("takes the number of retries from WEFT_MAX_RETRIES, else CLAUDE_CODE_MAX_RETRIES", async () => {
    const failing = () => [ScriptTurn.blocks([text("never")], { faults: [Fault.status(503, { headers: { "retry-after-ms": "1" }, times: Infinity })] })]
    const claude = await setup(failing(), { CLAUDE_CODE_MAX_RETRIES: "2" })
    const first = await runWeft(["-p", "hi", "--output-format", "json"], { cwd: claude.dir, env: claude.env })
    expect(first.code).toBe(1)
    expect(claude.server.requests().length).toBe(3)
    expect(JSON.parse(first.stdout)).toMatchObject({ is_error: true, result: expect.stringContaining("(3 attempts over") })

    const weft = await setup(failing(), { CLAUDE_CODE_MAX_RETRIES: "2", WEFT_MAX_RETRIES: "4" })
    const second = await runWeft(["-p", "hi", "--output-format", "json"], { cwd: weft.dir, env: weft.env })
    expect(second.code).toBe(1)
    expect(weft.server.requests().length).toBe(5)
  })

  it("a retry-after beyond what weft waits fails at once, saying when to try again", async () => {
    const { dir, env, server } = await setup([
      ScriptTurn.blocks([text("never")], { faults: [Fault.status(429, { headers: { "retry-after": "7200" }, times: Infinity })] })
    ])
    const before = Date.now()
    const out = await runWeft(["-p", "hi"], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(server.requests().length).toBe(1)
    const match = /wait 2 h before retrying, longer than weft waits \(5 min\): try again after (\S+)\./.exec(out.stderr)
    expect(match, out.stderr).not.toBeNull()
    const retryAt = Date.parse(match?.[1] ?? "")
    expect(retryAt).toBeGreaterThanOrEqual(before + 7_200_000 - 1000)
  })

  it("a server that accepts and never answers: API_TIMEOUT_MS per attempt, each retry said under --verbose, the real time in the error", async () => {
    const { dir, env, server } = await setup([ScriptTurn.blocks([text("never")], { faults: [Fault.noResponse({ times: Infinity })] })], {
      API_TIMEOUT_MS: "300",
      WEFT_MAX_RETRIES: "1"
    })
    const out = await runWeft(["-p", "hi", "--verbose"], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(server.requests().length).toBe(2)
    expect(out.stderr).toMatch(/API request failed \(No response from http:\/\/127\.0\.0\.1:\d+ within 300 ms\); retry 1\/1 in \d\.\d s/)
    expect(out.stderr).toMatch(/Error: API error: No response from http:\/\/127\.0\.0\.1:\d+: waited 300 ms for each of 2 attempts, [\d.]+ m?s in all\./)
    expect(out.stderr).toContain("API_TIMEOUT_MS")
  })

  it("a stream that stops mid-response fails after WEFT_STREAM_IDLE_TIMEOUT_MS, not the response timeout", async () => {
    const { dir, env } = await setup([ScriptTurn.blocks([text("one two three four")], { faults: [Fault.stall(3)] }), textTurn("unused")], {
      WEFT_STREAM_IDLE_TIMEOUT_MS: "300",
      API_TIMEOUT_MS: "600000"
    })
    const out = await runWeft(["-p", "hi"], { cwd: dir, env })
    expect(out.code).toBe(1)
    expect(out.stderr).toContain("no data from the server for 300 ms")
  })
})

describe("weft -p: model aliases and cost", () => {
  const initAndRequest = async (args: ReadonlyArray<string>, extraEnv: Readonly<Record<string, string>> = {}) => {
    const { dir, env, server } = await setup([textTurn("ok")], extraEnv)
    const out = await runWeft(["-p", "hi", "--output-format", "stream-json", "--verbose", ...args], { cwd: dir, env })
    expect(out.code, out.stderr).toBe(0)
    const request = server.requests()[0]
    const body = request?.body
    return {
      init: frames(out.stdout)[0],
      sent: typeof body === "object" && body !== null && "model" in body ? body.model : undefined,
      beta: request?.headers["anthropic-beta"]
    }
  }

  it("resolves opus / sonnet / haiku to current ids, shown in the init frame and sent", async () => {
    for (const [alias, id] of [["opus", "claude-opus-5-5"], ["sonnet", "claude-sonnet-5-5"], ["haiku", "claude-haiku-5-5"]] as const) {
      const { init, sent } = await initAndRequest(["--model", alias])
      expect(init).toMatchObject({ type: "system", subtype: "init", model: id })
      expect(sent).toBe(id)
    }
  })

  it("ANTHROPIC_DEFAULT_*_MODEL says what an alias means; ANTHROPIC_MODEL may be an alias; [1m] is the 1M-context beta", async () => {
    const opus = await initAndRequest(["--model", "opus"], { ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-opus-4-7" })
    expect(opus.init?.["model"]).toBe("claude-opus-4-7")
    expect(opus.sent).toBe("claude-opus-4-7")

    const fromEnv = await initAndRequest([], { ANTHROPIC_MODEL: "haiku", ANTHROPIC_DEFAULT_HAIKU_MODEL: "claude-haiku-4-5" })
    expect(fromEnv.init?.["model"]).toBe("claude-haiku-4-5")
    expect(fromEnv.sent).toBe("claude-haiku-4-5")

    const long = await initAndRequest(["--model", "sonnet[1m]"])
    expect(long.init?.["model"]).toBe("claude-sonnet-5-5[1m]")
    expect(long.sent).toBe("claude-sonnet-5-5")
    expect(long.beta).toContain("context-1m-2025-08-07")
  })

  it("an unknown model (a local server's) has unknown cost: total_cost_usd 0, the model unpriced in modelUsage", async () => {
    const { dir, env } = await setup([textTurn("local answer")])
    const out = await runWeft(["-p", "hi", "--output-format", "json", "--model", "qwen2.5-coder:7b"], { cwd: dir, env })
    expect(out.code).toBe(0)
    const result = JSON.parse(out.stdout)
    expect(result.total_cost_usd).toBe(0)
    expect(result.modelUsage["qwen2.5-coder:7b"]).toMatchObject({ costUSD: 0, unpriced: true })
    expect(result.modelUsage["qwen2.5-coder:7b"].outputTokens).toBeGreaterThan(0)

    const priced = await runWeft(["-p", "hi", "--output-format", "json", "--model", "claude-sonnet-4-5"], { cwd: dir, env })
    const pricedResult = JSON.parse(priced.stdout)
    expect(pricedResult.total_cost_usd).toBeGreaterThan(0)
    expect(pricedResult.modelUsage["claude-sonnet-4-5"]).not.toHaveProperty("unpriced")
  })
})

describe("weft -p behind a proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY)", () => {
  const proxied = async () => {
    const proxy = await startLoopbackProxy()
    cleanups.push(proxy.close)
    return proxy
  }

  it("sends http:// API requests to HTTP_PROXY in absolute form, with the proxy's credentials", async () => {
    const { dir, env, server } = await setup([textTurn("through the proxy")])
    const proxy = await proxied()
    const withAuth = proxy.url.replace("http://", "http://weft:s3cret@")
    const out = await runWeft(["-p", "hi"], { cwd: dir, env: { ...env, HTTP_PROXY: withAuth } })
    expect(out.stdout).toBe("through the proxy\n")
    expect(proxy.requests).toEqual([
      { method: "POST", target: `${server.url}/v1/messages`, proxyAuthorization: `Basic ${btoa("weft:s3cret")}` }
    ])
  })

  it("tunnels https:// API requests through HTTPS_PROXY with CONNECT, the certificate trusted through NODE_EXTRA_CA_CERTS", async () => {
    const { dir, env, server } = await setup([textTurn("one"), textTurn("two")])
    const proxy = await proxied()
    const front = await startTlsFront(Number(new URL(server.url).port))
    cleanups.push(front.close)
    const out = await runWeft(["-p", "hi"], {
      cwd: dir,
      env: { ...env, ANTHROPIC_BASE_URL: front.url, https_proxy: proxy.url, NODE_EXTRA_CA_CERTS: certificatePath }
    })
    expect(out.stderr).toBe("")
    expect(out.stdout).toBe("one\n")
    expect(proxy.requests).toEqual([{ method: "CONNECT", target: new URL(front.url).host, proxyAuthorization: undefined }])
    expect(server.requests().length).toBe(1)
  })

  it("goes direct where NO_PROXY says (loopback only when named), and says when the proxy cannot be reached", async () => {
    const { dir, env } = await setup([textTurn("direct"), textTurn("direct")])
    const proxy = await proxied()
    const direct = await runWeft(["-p", "hi"], { cwd: dir, env: { ...env, HTTP_PROXY: proxy.url, NO_PROXY: "example.com,127.0.0.1" } })
    expect(direct.stdout).toBe("direct\n")
    expect(proxy.requests).toEqual([])

    const down = await runWeft(["-p", "hi"], {
      cwd: dir,
      env: { ...env, HTTP_PROXY: "http://127.0.0.1:1", WEFT_MAX_RETRIES: "0" }
    })
    expect(down.code).toBe(1)
    expect(down.stderr).toMatch(/Connection failed: .*ECONNREFUSED 127\.0\.0\.1:1/)
    expect(down.stderr).toContain("HTTPS_PROXY/HTTP_PROXY/NO_PROXY")
  })
})
