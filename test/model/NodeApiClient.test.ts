import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as NodeApiClient from "../../src/model/NodeApiClient.js"

describe("NodeApiClient.makeHttpClient", () => {
  it.live("keeps a connection alive between requests, and closing its scope destroys it", () =>
    Effect.gen(function* () {
      const sockets: Array<{ readonly closed: Promise<void> }> = []
      const server = Http.createServer((_request, response) => response.end("ok"))
      server.on("connection", (socket) => sockets.push({ closed: new Promise((resolve) => socket.once("close", () => resolve())) }))
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))),
        () => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
      )
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
      const scope = yield* Scope.make()
      const client = yield* NodeApiClient.makeHttpClient.pipe(Scope.provide(scope))
      for (let i = 0; i < 2; i++) {
        const text = yield* client.get(url).pipe(Effect.flatMap((response) => response.text), Effect.scoped)
        expect(text).toBe("ok")
      }
      expect(sockets).toHaveLength(1)
      const closed = sockets[0]!.closed.then(() => "closed" as const)
      const open = new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 200))
      expect(yield* Effect.promise(() => Promise.race([closed, open]))).toBe("open")
      yield* Scope.close(scope, Exit.void)
      expect(yield* Effect.promise(() => Promise.race([closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 5_000))]))).toBe("closed")
    }).pipe(Effect.scoped)
  )
})
