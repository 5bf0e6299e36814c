/** Transcript entries for the session tests. */
import type { AssistantMessage } from "../../src/domain/Message.js"
import type { AssistantEntry, SystemEntry, UserEntry } from "../../src/domain/Transcript.js"

/** A one-text answer of the model. */
export const answerMessage = (text: string, usage = { input_tokens: 1, output_tokens: 1 }): AssistantMessage => ({
  id: `msg_${text.length}_${text.slice(0, 16)}`,
  type: "message",
  role: "assistant",
  model: "claude-test",
  content: [{ type: "text", text }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage
})

export const userEntry = (
  sessionId: string,
  cwd: string,
  index: number,
  content: UserEntry["message"]["content"]
): UserEntry => ({
  uuid: `u-${index}`,
  parentUuid: index === 0 ? null : `u-${index - 1}`,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
  sessionId,
  cwd,
  type: "user",
  message: { role: "user", content }
})

export const assistantEntry = (sessionId: string, cwd: string, index: number, text: string): AssistantEntry => ({
  uuid: `u-${index}`,
  parentUuid: index === 0 ? null : `u-${index - 1}`,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
  sessionId,
  cwd,
  type: "assistant",
  requestId: `req_${index}`,
  costUSD: 0.001,
  durationMs: 12,
  message: { ...answerMessage(text, { input_tokens: 10, output_tokens: 5 }), id: `msg_${index}` }
})

export const systemEntry = (sessionId: string, cwd: string, index: number): SystemEntry => ({
  uuid: `u-${index}`,
  parentUuid: index === 0 ? null : `u-${index - 1}`,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
  sessionId,
  cwd,
  type: "system",
  subtype: "init",
  content: "session started"
})

/** A short conversation: system init, a prompt, an answer, a tool result. */
export const conversation = (sessionId: string, cwd: string, prompt: string) => [
  systemEntry(sessionId, cwd, 0),
  userEntry(sessionId, cwd, 1, prompt),
  assistantEntry(sessionId, cwd, 2, "Sure."),
  userEntry(sessionId, cwd, 3, [{ type: "tool_result", tool_use_id: "toolu_1", content: "ok" }])
]
