/**
 * weft as a library: the services an agent is composed of, as Layers, and the data its loop speaks. What the modules
 * do inside (the stream decoder, the retry policy, the Bash analysis, ...) is not part of it. Test doubles are in
 * "weft/testing".
 */
// The loop and what it records.
export * as Agent from "./agent/Agent.js"
export * as Session from "./agent/Session.js"
// The subagents a Session's Agent tool offers (Session.Options.agents).
export * as AgentDefinitions from "./extensions/AgentDefinitions.js"
export * as Transcript from "./agent/Transcript.js"
// The data: the Messages API's content and messages, the loop's events, the transcript's entries.
export * as AgentEvent from "./domain/AgentEvent.js"
export * as Content from "./domain/Content.js"
export * as Message from "./domain/Message.js"
export * as Request from "./domain/Request.js"
export * as StreamEvent from "./domain/StreamEvent.js"
export * as TranscriptEntry from "./domain/Transcript.js"
export * as Usage from "./domain/Usage.js"
// The model.
export * as ApiClient from "./model/ApiClient.js"
export * as ApiError from "./model/ApiError.js"
export * as NodeApiClient from "./model/NodeApiClient.js"
// Tools.
export * as Tool from "./tools/Tool.js"
export * as ToolRegistry from "./tools/ToolRegistry.js"
export * as Builtin from "./tools/builtin/index.js"
// What may run, and who is asked.
export * as Permissions from "./permissions/Permissions.js"
export * as Prompter from "./permissions/Prompter.js"
export * as Hooks from "./hooks/Hooks.js"
// Custom commands and skills (`.claude/commands`, `.claude/skills`).
export * as Extensions from "./extensions/Extensions.js"
// The OS sandbox the model's commands run in.
export * as Sandbox from "./sandbox/Sandbox.js"
// Sessions.
export * as SessionStore from "./session/SessionStore.js"
// The context the model is given, and the configuration it comes from.
export * as Environment from "./context/Environment.js"
export * as Memory from "./context/Memory.js"
export * as Settings from "./context/Settings.js"
export * as SystemPrompt from "./context/SystemPrompt.js"
export * as Trust from "./context/Trust.js"
// weft's credentials, and the environment of the processes it starts (withheld from them, redacted from records).
export * as Credentials from "./platform/Credentials.js"
export * as ChildEnvironment from "./platform/ChildEnvironment.js"
