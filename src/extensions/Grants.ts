/**
 * Allow rules granted while a session runs by what it loaded: a command's or skill's `allowed-tools` (Claude Code
 * grants them for the rest of the run). They are session rules: kept in memory, never written to a settings file.
 *
 * `layer` puts Grants in front of the session's Permissions. A call the Permissions would ask about is allowed when
 * the permissions compiled with the granted rules added allow it and those compiled without them do not (so it is
 * the grant that allows it, whatever Permissions the session has). Everything else is the session's own decision:
 * a deny rule, an ask rule or a protected path still wins over a grant, as over any allow rule.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import { Settings } from "../context/Settings.js"
import { allow, type CheckRequest, type Decision, Permissions } from "../permissions/Permissions.js"
import type * as PermissionsModule from "../permissions/Permissions.js"

export interface Interface {
  /** The rules granted so far, in order. */
  readonly rules: Effect.Effect<ReadonlyArray<string>>
  /** Grants `rules` for the rest of the session. */
  readonly grant: (rules: ReadonlyArray<string>) => Effect.Effect<void>
}

interface State {
  readonly rules: ReadonlyArray<string>
  /** The session's rules with the grants, and without them (compiled on the first grant). */
  readonly compiled?: { readonly withGrants: PermissionsModule.Interface; readonly without: PermissionsModule.Interface }
}

export class Grants extends Context.Service<Grants, Interface>()("weft/Grants") {
  /**
   * Grants over the Permissions in context, which it replaces with one that honours them. `options` are the ones
   * the session's Permissions were made with (its rules, directories; the mode is read from it).
   */
  static layer = (options: PermissionsModule.Options = {}): Layer.Layer<Grants | Permissions, never, Permissions | Settings> =>
    Layer.effectContext(
      Effect.gen(function* () {
        const base = yield* Permissions
        // Permissions.make reads the Settings, and the ShellSession and Prompter when the session has them.
        const context = yield* Effect.context<Settings>()
        const state = yield* Ref.make<State>({ rules: [] })
        const compile = (rules: ReadonlyArray<string>) =>
          Permissions.make({ ...options, mode: base.mode, allowedTools: [...(options.allowedTools ?? []), ...rules] }).pipe(
            Effect.provideContext(context)
          )
        const grant = Effect.fn("Grants.grant")(function* (rules: ReadonlyArray<string>) {
          const current = yield* Ref.get(state)
          const added = rules.filter((rule) => !current.rules.includes(rule))
          if (added.length === 0) return
          const all = [...current.rules, ...added]
          const withGrants = yield* compile(all)
          const without = current.compiled?.without ?? (yield* compile([]))
          yield* Ref.set(state, { rules: all, compiled: { withGrants, without } })
        })
        const check = (request: CheckRequest): Effect.Effect<Decision> =>
          Effect.gen(function* () {
            const decision = yield* base.check(request)
            if (decision._tag !== "Ask") return decision
            const { compiled } = yield* Ref.get(state)
            if (compiled === undefined) return decision
            if ((yield* compiled.withGrants.check(request))._tag !== "Allow") return decision
            return (yield* compiled.without.check(request))._tag === "Allow" ? decision : allow
          })
        const grants: Interface = { rules: Effect.map(Ref.get(state), (current) => current.rules), grant }
        return Context.make(Grants, grants).pipe(Context.add(Permissions, { ...base, check }))
      })
    )

  /** Grants that change nothing (the Permissions in context are left as they are): tests, a fixed rule set. */
  static none: Interface = { rules: Effect.succeed([]), grant: () => Effect.void }

  /** `none` as a layer. */
  static layerNone: Layer.Layer<Grants> = Layer.succeed(Grants, Grants.none)
}

export const layer = Grants.layer
export const none = Grants.none
export const layerNone = Grants.layerNone
