/**
 * The sandbox's network part on weft's own proxy: per command, a proxy listener (NetworkProxy) on a unix socket in
 * the sandbox's directory, the bridge (NetworkBridge) that carries the command's connections to it from inside its
 * network namespace, the variables that point the command's clients at the bridge, and the refusals as note lines.
 * Loaded only when a sandbox has hosts to allow.
 */
import * as Effect from "effect/Effect"
import * as NetworkBridge from "./NetworkBridge.js"
import * as NetworkPolicy from "./NetworkPolicy.js"
import * as NetworkProxy from "./NetworkProxy.js"
import { type Network, SandboxRefused } from "./Sandbox.js"

/** The network part for a proxy and a bridge (the bridge listens on `port` inside). */
export const fromProxy = (
  proxy: NetworkProxy.Interface,
  bridge: NetworkBridge.Bridge,
  port: number = NetworkBridge.DEFAULT_PORT
): Network => ({
  listen: (directory) =>
    Effect.gen(function* () {
      const listener = yield* proxy.listen(directory).pipe(
        Effect.mapError((error) => new SandboxRefused({ message: `The sandbox's network proxy cannot start: ${error.message}` }))
      )
      const policy = yield* proxy.policy
      return {
        env: NetworkBridge.environment(policy, port),
        prefix: bridge.prefix({ port, socketPath: listener.socketPath }),
        violations: Effect.map(listener.violations, NetworkProxy.formatViolationLines)
      }
    })
})

/**
 * The network part the settings ask for: weft's proxy with their allowlist, and the bridge found here (perl, else
 * socat, else the Node.js running weft); with the entries of the lists that are not valid, for warnings.
 */
export const make = (policy: NetworkPolicy.Policy): Effect.Effect<{ readonly network: Network; readonly invalid: ReadonlyArray<string> }> =>
  Effect.gen(function* () {
    const invalid = NetworkPolicy.validate(policy).map((entry) => `weft: sandbox.network: ${entry.message}`)
    const proxy = yield* NetworkProxy.make({ policy })
    const bridge = yield* NetworkBridge.detect
    return { network: fromProxy(proxy, bridge), invalid }
  })
