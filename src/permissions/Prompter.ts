/**
 * Who answers when a call must be asked about: nobody (`none`: the ask becomes a denial the model can read, what
 * `weft -p` does), an in-process callback (library users), and later the SDK's `can_use_tool` and the terminal.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ToolTarget } from "../domain/ToolTarget.js"

export interface PromptRequest {
  readonly toolName: string
  readonly toolUseId: string
  readonly input: unknown
  readonly target: ToolTarget
  /** Why it is asked, written for a person (and the model, if refused). */
  readonly reason: string
}

export type PromptAnswer =
  | { readonly _tag: "Allow" }
  | { readonly _tag: "Deny"; readonly reason: string }

export interface Interface {
  readonly ask: (request: PromptRequest) => Effect.Effect<PromptAnswer>
}

/** The words the model reads when nobody could be asked. */
export const unansweredReason = (request: PromptRequest): string =>
  `Permission to use ${request.toolName} was not granted: ${request.reason} Nobody can approve it in this session ` +
  "(non-interactive). Do not retry it; use another approach or tell the user what permission is needed."

export class Prompter extends Context.Service<Prompter, Interface>()("weft/Prompter") {
  /** Nobody answers: every ask is a denial. */
  static none: Interface = {
    ask: (request) => Effect.succeed({ _tag: "Deny", reason: unansweredReason(request) })
  }

  /** Answers with `decide` (an in-process callback, e.g. a library user's UI or a test's script). */
  static fromEffect = (decide: (request: PromptRequest) => Effect.Effect<PromptAnswer>): Interface => ({
    ask: (request) => decide(request)
  })

  static layerNone = Layer.succeed(Prompter, Prompter.none)

  /** `fromEffect` as a layer: the Prompter of a library user's UI or a test's script. */
  static layer = (decide: (request: PromptRequest) => Effect.Effect<PromptAnswer>): Layer.Layer<Prompter> =>
    Layer.succeed(Prompter, Prompter.fromEffect(decide))
}

// The entry points at the module's top level: `import { Prompter } from "weft"` reads `Prompter.layer(...)`, and
// `Prompter.Prompter` is the Tag.
export const none = Prompter.none
export const fromEffect = Prompter.fromEffect
export const layerNone = Prompter.layerNone
export const layer = Prompter.layer
