// The floor for scratchpad/bench/sdk-session.mjs: the least a program can do to speak the Agent SDK's protocol to
// the Messages API. It reads stdin line by line, answers initialize, and for each user message sends the
// conversation so far (streaming, as weft does), reads the whole SSE response, and writes an init, an assistant and
// a result frame. No tools, no permissions, no transcript: what is left of weft's work is weft's own.
import { randomUUID } from "node:crypto"
import { createInterface } from "node:readline"

const base = process.env.ANTHROPIC_BASE_URL
const sessionId = randomUUID()
const history = []
const write = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`)
let queue = Promise.resolve()

const turn = async (message) => {
  write({ type: "system", subtype: "init", session_id: sessionId, cwd: process.cwd(), tools: [], mcp_servers: [], model: "claude-passthrough", permissionMode: "default", slash_commands: [], apiKeySource: "ANTHROPIC_API_KEY", claude_code_version: "0", output_style: "default", agents: [], skills: [], plugins: [], uuid: randomUUID() })
  history.push(message)
  const started = Date.now()
  const response = await fetch(`${base}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": process.env.ANTHROPIC_API_KEY ?? "", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "claude-passthrough", max_tokens: 1024, stream: true, messages: history })
  })
  const body = await response.text()
  let text = ""
  for (const line of body.split("\n")) {
    if (!line.startsWith("data: ")) continue
    const event = JSON.parse(line.slice(6))
    if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text
  }
  const assistant = { role: "assistant", content: [{ type: "text", text }] }
  history.push(assistant)
  write({ type: "assistant", message: { id: randomUUID(), type: "message", model: "claude-passthrough", stop_reason: "end_turn", usage: {}, ...assistant }, parent_tool_use_id: null, session_id: sessionId, uuid: randomUUID() })
  write({ type: "result", subtype: "success", is_error: false, duration_ms: Date.now() - started, duration_api_ms: 0, num_turns: 1, result: text, session_id: sessionId, total_cost_usd: 0, usage: {}, modelUsage: {}, permission_denials: [], uuid: randomUUID() })
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue
  const frame = JSON.parse(line)
  if (frame.type === "control_request" && frame.request.subtype === "initialize") {
    write({ type: "control_response", response: { subtype: "success", request_id: frame.request_id, response: { commands: [], agents: [], output_style: "default", available_output_styles: ["default"], models: [], account: {}, pid: process.pid } } })
  } else if (frame.type === "control_request") {
    write({ type: "control_response", response: { subtype: "success", request_id: frame.request_id, response: {} } })
  } else if (frame.type === "user") {
    queue = queue.then(() => turn(frame.message))
  }
}
await queue
