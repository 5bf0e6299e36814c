// The floor for scratchpad/bench/session.mjs: the same 2-turn session (request, SSE, Read, request, SSE, answer)
// written against node:http and nothing else: no validation, no permissions, no transcript, no retries, no
// system prompt. What a process that does the session's I/O at all costs beside `node -e 0`.
//   ANTHROPIC_BASE_URL=http://127.0.0.1:PORT ANTHROPIC_API_KEY=x node scratchpad/bench/session-floor.cjs "prompt"
const http = require("node:http")
const fs = require("node:fs")

const base = new URL(process.env.ANTHROPIC_BASE_URL)
const agent = new http.Agent({ keepAlive: true })
const tools = [
  {
    name: "Read",
    description: "Reads a file.",
    input_schema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] }
  }
]

const ask = (messages) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 32000, stream: true, system: "An agent.", messages, tools })
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: "/v1/messages",
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "x-api-key": process.env.ANTHROPIC_API_KEY,
          "anthropic-version": "2023-06-01"
        }
      },
      (response) => {
        response.setEncoding("utf8")
        let buffer = ""
        const content = []
        response.on("data", (chunk) => {
          buffer += chunk
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const frame = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const data = frame
              .split("\n")
              .filter((line) => line.startsWith("data:"))
              .map((line) => line.slice(5).trim())
              .join("\n")
            if (data === "") continue
            const event = JSON.parse(data)
            const block = content[event.index]
            if (event.type === "content_block_start") content[event.index] = { ...event.content_block }
            else if (event.type === "content_block_delta" && event.delta.type === "text_delta") block.text += event.delta.text
            else if (event.type === "content_block_delta" && event.delta.type === "input_json_delta") block.json = (block.json ?? "") + event.delta.partial_json
            else if (event.type === "content_block_stop" && block.type === "tool_use") {
              block.input = JSON.parse(block.json || "{}")
              delete block.json
            }
          }
        })
        response.on("end", () => resolve(content))
        response.on("error", reject)
      }
    )
    request.on("error", reject)
    request.end(body)
  })

const main = async () => {
  const messages = [{ role: "user", content: process.argv[2] ?? "hi" }]
  for (;;) {
    const content = await ask(messages)
    messages.push({ role: "assistant", content })
    const calls = content.filter((block) => block.type === "tool_use")
    if (calls.length === 0) {
      process.stdout.write(`${content.filter((block) => block.type === "text").map((block) => block.text).join("")}\n`)
      break
    }
    const numbered = (file) =>
      fs.readFileSync(file, "utf8").split("\n").map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join("\n")
    messages.push({
      role: "user",
      content: calls.map((call) => ({ type: "tool_result", tool_use_id: call.id, content: numbered(call.input.file_path) }))
    })
  }
  agent.destroy()
}
main()
