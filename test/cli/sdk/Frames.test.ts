import { describe, expect, it } from "vitest"
import * as Frames from "../../../src/cli/sdk/Frames.js"
import { toPromptAnswer } from "../../../src/cli/sdk/SdkCommand.js"
import * as SdkHooks from "../../../src/cli/sdk/SdkHooks.js"

describe("the stream-json protocol's input frames", () => {
  it("decodes user messages, control requests, responses and cancellations", () => {
    expect(Frames.decode(JSON.stringify({ type: "user", message: { role: "user", content: "hi" }, uuid: "u1" }))).toEqual({
      _tag: "User",
      message: { role: "user", content: "hi" },
      uuid: "u1"
    })
    expect(Frames.decode(JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] } }))).toMatchObject({
      _tag: "User",
      message: { content: [{ type: "text", text: "hi" }] },
      uuid: undefined
    })
    expect(Frames.decode(JSON.stringify({ type: "control_request", request_id: "r1", request: { subtype: "interrupt" } }))).toEqual({
      _tag: "ControlRequest",
      requestId: "r1",
      request: { subtype: "interrupt" }
    })
    expect(
      Frames.decode(JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: "weft_1", response: { behavior: "allow" } } }))
    ).toEqual({ _tag: "ControlResponse", requestId: "weft_1", response: { _tag: "Success", value: { behavior: "allow" } } })
    expect(Frames.decode(JSON.stringify({ type: "control_response", response: { subtype: "error", request_id: "weft_2", error: "no" } }))).toEqual({
      _tag: "ControlResponse",
      requestId: "weft_2",
      response: { _tag: "Error", message: "no" }
    })
    expect(Frames.decode(JSON.stringify({ type: "control_cancel_request", request_id: "r2" }))).toEqual({ _tag: "ControlCancel", requestId: "r2" })
    expect(Frames.decode(JSON.stringify({ type: "keep_alive" }))).toEqual({ _tag: "KeepAlive" })
    expect(Frames.decode("   ")).toBeUndefined()
  })

  it("says what is wrong with what it cannot act on; a control request with an id keeps it, for the error response", () => {
    expect(Frames.decode("{oops")).toMatchObject({ _tag: "Invalid", message: expect.stringContaining("not JSON") })
    expect(Frames.decode("42")).toMatchObject({ _tag: "Invalid", message: expect.stringContaining("not a JSON object") })
    expect(Frames.decode(JSON.stringify({ type: "assistant" }))).toMatchObject({ message: expect.stringContaining('unknown type "assistant"') })
    expect(Frames.decode(JSON.stringify({ type: "user", message: { role: "user", content: 3 } }))).toMatchObject({ _tag: "Invalid" })
    expect(Frames.decode(JSON.stringify({ type: "control_request", request_id: "r3", request: {} }))).toEqual({
      _tag: "Invalid",
      message: "a control_request without a request.subtype",
      requestId: "r3"
    })
    expect(Frames.decode(JSON.stringify({ type: "control_response", response: { subtype: "maybe", request_id: "x" } }))).toMatchObject({ _tag: "Invalid" })
  })
})

describe("the SDK's answers and hooks", () => {
  it("can_use_tool answers: allow with its input and permission updates, deny with its message and interrupt, anything else a denial", () => {
    expect(toPromptAnswer({ behavior: "allow", updatedInput: { command: "ls" }, toolUseID: "t" })).toEqual({ _tag: "Allow", updatedInput: { command: "ls" } })
    expect(
      toPromptAnswer({
        behavior: "allow",
        updatedPermissions: [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "ls" }], behavior: "allow", destination: "session" }, { type: "bogus" }]
      })
    ).toEqual({
      _tag: "Allow",
      updatedPermissions: [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "ls" }], behavior: "allow", destination: "session" }]
    })
    expect(toPromptAnswer({ behavior: "deny", message: "No.", interrupt: true })).toEqual({ _tag: "Deny", reason: "No.", interrupt: true })
    expect(toPromptAnswer({ behavior: "deny" })).toEqual({ _tag: "Deny", reason: "The user denied this call." })
    expect(toPromptAnswer("yes")).toMatchObject({ _tag: "Deny" })
  })

  it("initialize's hooks become matcher groups of callback ids; unknown events and bad matchers are named", () => {
    const config = SdkHooks.decode({
      PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_0", "hook_1"], timeout: 5 }, { hookCallbackIds: ["hook_2"] }],
      Stop: [{ matcher: "ignored", hookCallbackIds: ["hook_3"] }],
      TeammateIdle: [{ hookCallbackIds: ["hook_4"] }],
      PostToolUse: [{ matcher: "(", hookCallbackIds: ["hook_5"] }]
    })
    const pre = config.events.PreToolUse ?? []
    expect(pre.map((group) => [group.matcher.source, group.hooks])).toEqual([
      ["Bash", [{ command: "hook_0", timeoutSeconds: 5 }, { command: "hook_1", timeoutSeconds: 5 }]],
      ["", [{ command: "hook_2", timeoutSeconds: 60 }]]
    ])
    expect(pre[0]?.matcher.test("Bash")).toBe(true)
    expect(pre[0]?.matcher.test("Read")).toBe(false)
    // Stop takes no matcher: the callback runs for every stop.
    expect(config.events.Stop?.[0]?.matcher.test(undefined)).toBe(true)
    expect(config.warnings).toEqual([
      expect.stringContaining("weft has no TeammateIdle hook event"),
      expect.stringContaining("a PostToolUse entry is ignored")
    ])
  })
})
