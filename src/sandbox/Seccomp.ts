/**
 * The seccomp filter every sandboxed command runs under, as a classic BPF program built here (no helper binary):
 * bwrap installs it (`--seccomp <fd>`) right before it runs the command, and everything the command starts
 * inherits it.
 *
 * Refused with EPERM: `socket(AF_UNIX, ...)` (a unix socket reaches whatever listens on the host, docker and
 * ssh-agent included; lifted when the settings allow unix sockets), `ptrace`, new namespaces (`unshare`, `setns`,
 * `clone` with any CLONE_NEW* flag), mounting (`mount`, the new mount API, `pivot_root`), the kernel keyring, `bpf`,
 * `perf_event_open`, `userfaultfd`, `process_vm_readv/writev`, `open_by_handle_at`, module and kexec loading, and
 * io_uring (its operations create sockets without passing through the `socket` call). `clone3` answers ENOSYS:
 * its flags sit behind a pointer the filter cannot read, and C libraries then fall back to `clone`. Any other
 * architecture than the native one (32-bit compat calls, x32) is refused whole.
 */

/** The architectures the filter knows; elsewhere the sandbox reports it cannot start. */
export type Arch = "x64" | "arm64"

interface Table {
  readonly audit: number
  readonly socket: number
  readonly clone: number
  readonly clone3: number
  readonly refused: ReadonlyArray<number>
  /** x86_64 also accepts x32 calls (numbers with this bit set): refused. */
  readonly x32Bit?: number
}

// The calls refused with EPERM, as [name, x86_64 number, arm64 number]; the sources of the numbers are below.
const refusedCalls: ReadonlyArray<readonly [string, number, number]> = [
  ["ptrace", 101, 117],
  ["unshare", 272, 97],
  ["setns", 308, 268],
  ["mount", 165, 40],
  ["umount2", 166, 39],
  ["pivot_root", 155, 41],
  ["chroot", 161, 51],
  ["add_key", 248, 217],
  ["request_key", 249, 218],
  ["keyctl", 250, 219],
  ["bpf", 321, 280],
  ["perf_event_open", 298, 241],
  ["userfaultfd", 323, 282],
  ["process_vm_readv", 310, 270],
  ["process_vm_writev", 311, 271],
  ["open_by_handle_at", 304, 265],
  ["init_module", 175, 105],
  ["finit_module", 313, 273],
  ["delete_module", 176, 106],
  ["kexec_load", 246, 104],
  ["kexec_file_load", 320, 294],
  ["io_uring_setup", 425, 425],
  ["io_uring_enter", 426, 426],
  ["io_uring_register", 427, 427],
  ["open_tree", 428, 428],
  ["move_mount", 429, 429],
  ["fsopen", 430, 430],
  ["fsconfig", 431, 431],
  ["fsmount", 432, 432],
  ["fspick", 433, 433],
  ["mount_setattr", 442, 442]
]

// Syscall numbers: arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h.
const tables: Record<Arch, Table> = {
  x64: {
    audit: 0xc000003e,
    socket: 41,
    clone: 56,
    clone3: 435,
    x32Bit: 0x40000000,
    refused: refusedCalls.map((call) => call[1])
  },
  arm64: {
    audit: 0xc00000b7,
    socket: 198,
    clone: 220,
    clone3: 435,
    refused: refusedCalls.map((call) => call[2])
  }
}

// BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
const LD_W_ABS = 0x20
const JEQ_K = 0x15
const JGE_K = 0x35
const JSET_K = 0x45
const RET_K = 0x06
const RET_KILL_PROCESS = 0x80000000
const RET_ERRNO = 0x00050000
const RET_ALLOW = 0x7fff0000
const EPERM = 1
const ENOSYS = 38
const AF_UNIX = 1
/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET (and CLONE_NEWTIME, 0x80). */
const CLONE_NEW_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80

// struct seccomp_data: nr (u32) at 0, arch (u32) at 4, instruction pointer at 8, args[i] (u64) at 16 + 8i; the
// low half of an argument is at its offset on a little-endian machine (both architectures here).
const NR = 0
const ARCH = 4
const arg0Low = 16

interface Instruction {
  readonly code: number
  readonly jt: number
  readonly jf: number
  readonly k: number
}

const stmt = (code: number, k: number): Instruction => ({ code, jt: 0, jf: 0, k })
const jump = (code: number, k: number, jt: number, jf: number): Instruction => ({ code, jt, jf, k })

export interface Options {
  readonly arch: Arch
  /** Leave `socket(AF_UNIX)` alone (the settings allow unix sockets). */
  readonly allowUnixSockets: boolean
}

/** The filter's instructions (exported for tests, which run them through `run`). */
export const instructions = (options: Options): ReadonlyArray<Instruction> => {
  const table = tables[options.arch]
  // Every check is "load, then compare against one constant": a match jumps to the shared tails at the end,
  // whose distance from each check is computed once the program is laid out.
  const body: Array<Instruction | { readonly to: "deny" | "enosys"; readonly code: number; readonly k: number }> = []
  body.push(stmt(LD_W_ABS, ARCH))
  body.push(jump(JEQ_K, table.audit, 1, 0))
  body.push(stmt(RET_K, RET_KILL_PROCESS))
  body.push(stmt(LD_W_ABS, NR))
  if (table.x32Bit !== undefined) body.push({ to: "deny", code: JGE_K, k: table.x32Bit })
  for (const nr of table.refused) body.push({ to: "deny", code: JEQ_K, k: nr })
  body.push({ to: "enosys", code: JEQ_K, k: table.clone3 })
  // clone: refused when its flags ask for a new namespace.
  body.push(jump(JEQ_K, table.clone, 0, 3))
  body.push(stmt(LD_W_ABS, arg0Low))
  body.push({ to: "deny", code: JSET_K, k: CLONE_NEW_FLAGS })
  body.push(stmt(RET_K, RET_ALLOW))
  if (!options.allowUnixSockets) {
    body.push(jump(JEQ_K, table.socket, 0, 2))
    body.push(stmt(LD_W_ABS, arg0Low))
    body.push({ to: "deny", code: JEQ_K, k: AF_UNIX })
  }
  const tails = { allow: stmt(RET_K, RET_ALLOW), deny: stmt(RET_K, RET_ERRNO | EPERM), enosys: stmt(RET_K, RET_ERRNO | ENOSYS) }
  const order: ReadonlyArray<keyof typeof tails> = ["allow", "deny", "enosys"]
  const program: Array<Instruction> = []
  body.forEach((item, index) => {
    if (!("to" in item)) {
      program.push(item)
      return
    }
    // Distance from the next instruction to the tail: what is left of the body, then the tails before it.
    const offset = body.length - index - 1 + order.indexOf(item.to)
    program.push(jump(item.code, item.k, offset, 0))
  })
  for (const tail of order) program.push(tails[tail])
  return program
}

/** The program as `struct sock_filter[]` bytes, what `bwrap --seccomp` reads. */
export const program = (options: Options): Uint8Array => {
  const list = instructions(options)
  const bytes = new Uint8Array(list.length * 8)
  const view = new DataView(bytes.buffer)
  list.forEach((instruction, index) => {
    view.setUint16(index * 8, instruction.code, true)
    view.setUint8(index * 8 + 2, instruction.jt)
    view.setUint8(index * 8 + 3, instruction.jf)
    view.setUint32(index * 8 + 4, instruction.k, true)
  })
  return bytes
}

/** The architecture of this process, if the filter knows it. */
export const currentArch = (arch: string = process.arch): Arch | undefined =>
  arch === "x64" || arch === "arm64" ? arch : undefined

/**
 * Runs the program on one call as the kernel would (for tests): the action it returns. `args` are the low halves of
 * the call's arguments.
 */
export const run = (
  list: ReadonlyArray<Instruction>,
  call: { readonly arch: number; readonly nr: number; readonly args?: ReadonlyArray<number> }
): number => {
  let accumulator = 0
  let pc = 0
  const load = (offset: number): number => {
    if (offset === NR) return call.nr
    if (offset === ARCH) return call.arch
    const index = (offset - arg0Low) / 8
    return call.args?.[index] ?? 0
  }
  while (pc < list.length) {
    const instruction = list[pc]
    if (instruction === undefined) break
    pc++
    switch (instruction.code) {
      case LD_W_ABS:
        accumulator = load(instruction.k)
        break
      case JEQ_K:
        pc += accumulator === instruction.k ? instruction.jt : instruction.jf
        break
      case JGE_K:
        pc += accumulator >>> 0 >= instruction.k >>> 0 ? instruction.jt : instruction.jf
        break
      case JSET_K:
        pc += (accumulator & instruction.k) !== 0 ? instruction.jt : instruction.jf
        break
      case RET_K:
        return instruction.k >>> 0
      default:
        throw new Error(`unknown instruction ${instruction.code}`)
    }
  }
  throw new Error("the program fell off its end")
}

export const actions = { allow: RET_ALLOW, killProcess: RET_KILL_PROCESS, eperm: RET_ERRNO | EPERM, enosys: RET_ERRNO | ENOSYS } as const
export const auditArch = (arch: Arch): number => tables[arch].audit
