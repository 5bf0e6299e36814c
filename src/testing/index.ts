/**
 * weft's test doubles, public (`import { ScriptedModel, Script } from "weft/testing"`): users test their own
 * agents with them. ScriptedModel is an in-process fake ApiClient; MockAnthropicServer a loopback Messages API
 * for tests that go through HTTP (or spawn processes); both play a Script.
 */
export * as MockAnthropicServer from "./MockAnthropicServer.js"
export * as Script from "./Script.js"
export { Fault, ScriptTurn } from "./Script.js"
export * as ScriptedModel from "./ScriptedModel.js"
