import { describe, expect, it } from "@effect/vitest"
import * as Seccomp from "../../src/sandbox/Seccomp.js"

const { actions } = Seccomp

describe("Seccomp", () => {
  for (const arch of ["x64", "arm64"] as const) {
    const audit = Seccomp.auditArch(arch)
    const nr = arch === "x64"
      ? { socket: 41, ptrace: 101, unshare: 272, setns: 308, clone: 56, clone3: 435, read: 0, mount: 165, ioUringSetup: 425 }
      : { socket: 198, ptrace: 117, unshare: 97, setns: 268, clone: 220, clone3: 435, read: 63, mount: 40, ioUringSetup: 425 }
    const program = Seccomp.instructions({ arch, allowUnixSockets: false })
    const call = (n: number, args: ReadonlyArray<number> = []) => Seccomp.run(program, { arch: audit, nr: n, args })

    describe(arch, () => {
      it("refuses socket(AF_UNIX) and lets other families through", () => {
        expect(call(nr.socket, [1])).toBe(actions.eperm)
        expect(call(nr.socket, [2])).toBe(actions.allow)
        expect(call(nr.socket, [10])).toBe(actions.allow)
      })

      it("lets socket(AF_UNIX) through when unix sockets are allowed", () => {
        const open = Seccomp.instructions({ arch, allowUnixSockets: true })
        expect(Seccomp.run(open, { arch: audit, nr: nr.socket, args: [1] })).toBe(actions.allow)
        expect(Seccomp.run(open, { arch: audit, nr: nr.ptrace })).toBe(actions.eperm)
      })

      it("refuses ptrace, unshare, setns, mount, io_uring", () => {
        for (const n of [nr.ptrace, nr.unshare, nr.setns, nr.mount, nr.ioUringSetup]) expect(call(n)).toBe(actions.eperm)
      })

      it("refuses clone with a namespace flag, allows a plain clone (fork, threads)", () => {
        expect(call(nr.clone, [0x10000000])).toBe(actions.eperm)
        expect(call(nr.clone, [0x00020000 | 0x11])).toBe(actions.eperm)
        expect(call(nr.clone, [0x003d0f00])).toBe(actions.allow)
        expect(call(nr.clone, [0x01200011])).toBe(actions.allow)
      })

      it("answers clone3 with ENOSYS so the C library falls back to clone", () => {
        expect(call(nr.clone3)).toBe(actions.enosys)
      })

      it("allows everything else, and kills a call of another architecture", () => {
        expect(call(nr.read)).toBe(actions.allow)
        expect(Seccomp.run(program, { arch: 0x40000003, nr: nr.socket, args: [1] })).toBe(actions.killProcess)
      })

      it("encodes 8 bytes per instruction, little-endian", () => {
        const bytes = Seccomp.program({ arch, allowUnixSockets: false })
        expect(bytes.length).toBe(program.length * 8)
        const view = new DataView(bytes.buffer)
        expect(view.getUint16(0, true)).toBe(0x20)
        expect(view.getUint32(4, true)).toBe(4)
      })
    })
  }

  it("refuses x32 calls on x86_64", () => {
    const program = Seccomp.instructions({ arch: "x64", allowUnixSockets: false })
    expect(Seccomp.run(program, { arch: Seccomp.auditArch("x64"), nr: 0x40000000 + 41, args: [2] })).toBe(actions.eperm)
  })
})
