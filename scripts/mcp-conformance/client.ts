/**
 * The client the MCP conformance suite tests: weft's McpClient layer against the suite's server for one scenario.
 * The suite runs it with the server's URL as the last argument and the scenario in MCP_CONFORMANCE_SCENARIO
 * (MCP_CONFORMANCE_CONTEXT holds a scenario's credentials). Exit 0 when the scenario's steps succeeded.
 * Built and run by scripts/mcp-conformance/run.mjs (`npm run mcp:conformance`).
 */
import { auth, ClientCredentialsProvider, extractWWWAuthenticateParams } from "@modelcontextprotocol/client"
import type { FetchLike, OAuthClientProvider, OAuthTokens } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { McpClient } from "../../src/mcp/McpClient.js"
import type { HttpParams } from "../../src/mcp/McpConnection.js"

const serverUrl = process.argv[process.argv.length - 1] ?? ""
const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? ""
const context: Record<string, string> = JSON.parse(process.env["MCP_CONFORMANCE_CONTEXT"] ?? "{}")

/** An OAuth client with no browser: the authorization server's redirect is followed by hand for its code. */
class HeadlessOAuth implements OAuthClientProvider {
  private saved: OAuthTokens | undefined
  private info: Parameters<NonNullable<OAuthClientProvider["saveClientInformation"]>>[0] | undefined
  private verifier = ""
  code: string | undefined
  readonly clientMetadataUrl = "https://conformance-test.local/client-metadata.json"
  get redirectUrl() {
    return "http://localhost:3000/callback"
  }
  get clientMetadata() {
    return { client_name: "weft", redirect_uris: ["http://localhost:3000/callback"] }
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: NonNullable<HeadlessOAuth["info"]>) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  async redirectToAuthorization(url: URL) {
    const response = await fetch(url, { redirect: "manual" })
    const location = response.headers.get("location")
    this.code = location ? (new URL(location).searchParams.get("code") ?? undefined) : undefined
    if (this.code === undefined) throw new Error(`no authorization code from ${url.href}`)
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

/** Requests with the OAuth token; a 401 or 403 runs the authorization flow once and the request again. */
const oauthFetch = (provider: HeadlessOAuth): FetchLike => {
  const send = async (input: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers)
    const tokens = provider.tokens()
    if (tokens) headers.set("Authorization", `Bearer ${tokens.access_token}`)
    return fetch(input, { ...init, headers })
  }
  return async (input, init) => {
    const response = await send(input, init)
    if (response.status !== 401 && response.status !== 403) return response
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response)
    const options = { serverUrl, fetchFn: fetch, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) }
    if ((await auth(provider, options)) === "REDIRECT") {
      await auth(provider, { ...options, authorizationCode: provider.code ?? "" })
    }
    return send(input, init)
  }
}

const http = (): Pick<HttpParams, "fetch" | "authProvider"> | undefined => {
  if (context["client_id"] !== undefined && context["client_secret"] !== undefined) {
    return { authProvider: new ClientCredentialsProvider({ clientId: context["client_id"], clientSecret: context["client_secret"] }) }
  }
  return scenario.startsWith("auth/") ? { fetch: oauthFetch(new HeadlessOAuth()) } : undefined
}

/** The tool each scenario calls (after connecting and listing), if any. */
const toolOf: Record<string, readonly [string, Record<string, unknown>]> = {
  tools_call: ["add_numbers", { a: 5, b: 3 }],
  "elicitation-sep1034-client-defaults": ["test_client_elicitation_defaults", {}],
  "sse-retry": ["test_reconnection", {}]
}

const program = Effect.gen(function* () {
  const mcp = yield* McpClient.make({
    servers: [{ name: "test", scope: "dynamic", origin: "conformance", config: { type: "http", url: serverUrl, headers: {} } }],
    cwd: process.cwd(),
    http,
    // Accept with no content: the client fills in the form's defaults.
    elicit: () => Effect.succeed({ action: "accept", content: {} })
  })
  const [status] = yield* mcp.servers
  if (status?.status !== "connected") return yield* Effect.fail(new Error(`not connected: ${status?.error ?? "?"}`))
  const tools = mcp.tools().flatMap((entry) => entry.tools.map((tool) => tool.name))
  const call = toolOf[scenario] ?? (scenario.startsWith("auth/") && tools.includes("test-tool") ? (["test-tool", {}] as const) : undefined)
  if (call !== undefined && tools.includes(call[0])) yield* mcp.callTool("test", call[0], call[1])
})

Effect.runPromise(Effect.scoped(program)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
)
