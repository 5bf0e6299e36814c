/**
 * Who answers when a call must be asked about: nobody (`none`: the ask becomes a denial the model can read, what
 * `weft -p` does), an in-process callback (library users), and later the SDK's `can_use_tool` and the terminal.
 */
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { PermissionUpdate } from "../domain/AgentEvent.js"
import type { ToolTarget } from "../domain/ToolTarget.js"

export type { PermissionUpdate, PermissionUpdateDestination } from "../domain/AgentEvent.js"

export interface PromptRequest {
  readonly toolName: string
  readonly toolUseId: string
  readonly input: unknown
  readonly target: ToolTarget
  /** Why it is asked, written for a person (and the model, if refused). */
  readonly reason: string
  /** The path that made it ask (outside the workspace, or protected), when a path did. */
  readonly blockedPath?: string
  /** Rules that would let such calls run without asking, for an "always allow" answer. */
  readonly suggestions?: ReadonlyArray<PermissionUpdate>
}

/**
 * Claude Code's answers. Allow may replace the input (`updatedInput`: decoded by the tool and checked by
 * Permissions again, where a deny rule still wins) and keep rules or a mode (`updatedPermissions`, each kept where
 * its destination says). Deny gives the model `reason`; with `interrupt` the turn ends as well.
 */
export type PromptAnswer =
  | {
      readonly _tag: "Allow"
      readonly updatedInput?: unknown
      readonly updatedPermissions?: ReadonlyArray<PermissionUpdate>
    }
  | { readonly _tag: "Deny"; readonly reason: string; readonly interrupt?: boolean }

export interface Interface {
  readonly ask: (request: PromptRequest) => Effect.Effect<PromptAnswer>
}

/** The words the model reads when nobody could be asked. */
export const unansweredReason = (request: PromptRequest): string =>
  `Permission to use ${request.toolName} was not granted: ${request.reason} Nobody can approve it in this session ` +
  "(non-interactive). Do not retry it; use another approach or tell the user what permission is needed."

/**
 * A Prompter whose questions a host answers later (a UI, an SDK's `can_use_tool`): each ask waits on a Deferred of
 * its own, keyed by its tool_use_id, until `answer` gives it; an ask whose turn is interrupted is withdrawn. The
 * host learns of an ask from an event sent before the ask reaches the Prompter: `expect` opens its Deferred when the
 * event goes out, so an answer that comes back at once is not lost.
 */
export interface Pending extends Interface {
  /** Answers the ask of `toolUseId`; false when none is waiting (answered already, or withdrawn). */
  readonly answer: (toolUseId: string, answer: PromptAnswer) => Effect.Effect<boolean>
  /** The asks waiting now, oldest first. */
  readonly pending: Effect.Effect<ReadonlyArray<PromptRequest>>
  /** An ask of `toolUseId` is on its way: answers to it are kept from now on. */
  readonly expect: (toolUseId: string) => Effect.Effect<void>
  /** The ask of `toolUseId` is over (answered or withdrawn): answers to it are refused from now on. */
  readonly forget: (toolUseId: string) => Effect.Effect<void>
}

interface Waiting {
  request: PromptRequest | undefined
  readonly answer: Deferred.Deferred<PromptAnswer>
}

const makePending: Effect.Effect<Pending> = Effect.sync(() => {
  const waiting = new Map<string, Waiting>()
  const open = (toolUseId: string) =>
    Effect.gen(function* () {
      const found = waiting.get(toolUseId)
      if (found !== undefined) return found
      const entry: Waiting = { request: undefined, answer: yield* Deferred.make<PromptAnswer>() }
      waiting.set(toolUseId, entry)
      return entry
    })
  return {
    ask: (request) =>
      Effect.gen(function* () {
        const entry = yield* open(request.toolUseId)
        entry.request = request
        return yield* Deferred.await(entry.answer)
      }).pipe(Effect.ensuring(Effect.sync(() => waiting.delete(request.toolUseId)))),
    answer: (toolUseId, answer) =>
      Effect.suspend(() => {
        const entry = waiting.get(toolUseId)
        return entry === undefined ? Effect.succeed(false) : Deferred.succeed(entry.answer, answer)
      }),
    pending: Effect.sync(() =>
      [...waiting.values()].flatMap((entry) => (entry.request === undefined ? [] : [entry.request]))
    ),
    expect: (toolUseId) => Effect.asVoid(open(toolUseId)),
    forget: (toolUseId) => Effect.sync(() => void waiting.delete(toolUseId))
  }
})

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

  /** Asks answered later by `answer` (see Pending). */
  static makePending = makePending

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
export { makePending }
