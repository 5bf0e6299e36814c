/**
 * The bridge inside a sandbox's network namespace: a command there has only its own loopback interface, so a small
 * forwarder listens on 127.0.0.1:<port> inside and carries each connection to weft's proxy over the unix socket
 * bound into the sandbox (NetworkProxy). The proxy variables point the command's clients at it.
 *
 * The bridge starts once per command, so its start-up is paid by every command (scratchpad/bench/sandbox-proxy.mjs,
 * docs/sandbox-network.md): a Perl script where perl is installed (Debian's perl-base is essential), else socat,
 * else the Node.js that runs weft (always there, but tens of ms to start). Either way the bridge is listening before
 * the command starts, and it runs OUTSIDE the command's seccomp filter (it needs `socket(AF_UNIX)` to reach the
 * proxy): its argv goes before the filter's helper.
 */
import * as Effect from "effect/Effect"
import * as Variables from "../platform/Variables.js"
import * as NetworkPolicy from "./NetworkPolicy.js"
import { onPath } from "./Sandbox.js"

/** The port the bridge listens on inside (each sandbox has a network namespace of its own, so no clash with weft's). */
export const DEFAULT_PORT = 3128

export interface PrefixOptions {
  /** The port to listen on, on 127.0.0.1 inside the sandbox. */
  readonly port: number
  /** The proxy's unix socket as the sandbox sees it. */
  readonly socketPath: string
}

export interface Bridge {
  readonly kind: "perl" | "socat" | "node"
  /**
   * The argv to put before the command's own (after `bwrap ... --`): it starts the bridge, waits until it listens,
   * then runs the rest of the argv and exits with its status. Descriptors 0-3 reach the rest of the argv as they
   * were (fd 3: the sandbox's seccomp filter, for its helper).
   */
  readonly prefix: (options: PrefixOptions) => ReadonlyArray<string>
}

/**
 * socat forks one child per connection; bash probes the port (`/dev/tcp`, a builtin: no tool needed) until socat
 * listens, then execs the command. If socat dies first (it could not bind), the command does not run. The probe is a
 * connection the proxy sees close without a byte, which it ignores.
 */
const socatScript = [
  `"$1" "TCP-LISTEN:$2,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$3" </dev/null >/dev/null 2>&1 3<&- &`,
  `__weft_bridge=$!`,
  `until { : <"/dev/tcp/127.0.0.1/$2"; } 2>/dev/null; do`,
  `  kill -0 "$__weft_bridge" 2>/dev/null || { echo "weft sandbox: the network bridge (socat) did not start" >&2; exit 125; }`,
  `done`,
  `unset __weft_bridge; shift 3; exec "$@"`
].join("\n")

export const socat = (options: { readonly socat: string; readonly bash: string }): Bridge => ({
  kind: "socat",
  prefix: ({ port, socketPath }) => [
    options.bash,
    "-c",
    socatScript,
    "weft-bridge",
    options.socat,
    String(port),
    socketPath
  ]
})

/**
 * The Node.js bridge: binds, then runs the command as its child with the same stdio and fd 3 (where the sandbox
 * hands the seccomp filter to the helper that follows), relays the signals a parent sends, and exits as the command
 * did (128 + signal number for a signal, as shells report it). Written in plain CommonJS for `node -e`: no file has
 * to be visible inside the sandbox.
 */
export const nodeScript = `"use strict";
const net = require("node:net"), os = require("node:os"), fs = require("node:fs"), { spawn } = require("node:child_process");
const [port, socketPath, command, ...args] = process.argv.slice(1);
// No Nagle delay on the TCP side: a response written in pieces would otherwise wait for the client's delayed ACK.
const server = net.createServer({ noDelay: true }, (client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream); upstream.pipe(client);
  client.on("error", () => upstream.destroy()); upstream.on("error", () => client.destroy());
});
server.on("error", (error) => { process.stderr.write("weft sandbox: the network bridge did not start: " + error.message + "\\n"); process.exit(125); });
server.listen(Number(port), "127.0.0.1", () => {
  let fd3 = [];
  try { fs.fstatSync(3); fd3 = [3]; } catch {}
  const child = spawn(command, args, { stdio: ["inherit", "inherit", "inherit", ...fd3] });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => { process.stderr.write("weft sandbox: " + command + ": " + error.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
});
`

/**
 * The Perl bridge (Perl alone, no module: Debian's essential perl-base is enough, and the Linux constants are
 * written out because loading Socket.pm doubles the start-up): binds, then forks the bridge and execs the command
 * in the parent, so the command is the sandbox's own child and the bridge is listening before it starts. One
 * process per connection (and per direction); the sandbox's pid namespace ends them with the command.
 */
export const perlScript = String.raw`# Linux constants and sockaddr layouts written out: loading the Socket module would double the start-up.
my ($port, $path) = splice(@ARGV, 0, 2);
socket(my $server, 2, 1, 0) or die "weft sandbox: the network bridge: socket: $!\n";
setsockopt($server, 1, 2, 1);
bind($server, pack("S n C4 x8", 2, $port, 127, 0, 0, 1)) && listen($server, 128)
  or die "weft sandbox: the network bridge cannot listen on 127.0.0.1:$port: $!\n";
my $bridge = fork();
die "weft sandbox: the network bridge: fork: $!\n" unless defined $bridge;
if ($bridge) { close($server); exec { $ARGV[0] } @ARGV or do { print STDERR "weft sandbox: $ARGV[0]: $!\n"; exit 127 }; }
open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">", "/dev/null");
# Not dumpable (prctl PR_SET_DUMPABLE 0, inherited by the relays): the command, which the seccomp filter holds and
# this bridge does not, cannot write its memory through /proc/<pid>/mem to open unix sockets from it.
syscall($prctl, 4, 0, 0, 0, 0) if defined $prctl;
$SIG{CHLD} = "IGNORE";
sub copy { my ($from, $to) = @_; my $buffer;
  while (1) { my $n = sysread($from, $buffer, 65536); last unless $n;
    for (my $off = 0; $off < $n;) { my $w = syswrite($to, $buffer, $n - $off, $off); exit 0 unless defined $w; $off += $w; } }
  shutdown($to, 1); }
while (1) {
  accept(my $client, $server) or next;
  my $relay = fork();
  if (defined $relay && $relay == 0) {
    close($server);
    my $upstream;
    socket($upstream, 1, 1, 0) && connect($upstream, pack("S Z108", 1, $path)) or exit 1;
    setsockopt($client, 6, 1, 1);
    my $half = fork();
    if (defined $half && $half == 0) { copy($client, $upstream); exit 0; }
    copy($upstream, $client); exit 0;
  }
  close($client);
}
`

/** prctl's system call number here (x86_64 157, aarch64 167), for the bridge to make itself not dumpable. */
const prctlNumber = process.arch === "arm64" ? 167 : process.arch === "x64" ? 157 : undefined

export const perl = (perlPath: string): Bridge => ({
  kind: "perl",
  prefix: ({ port, socketPath }) => [
    perlPath,
    "-e",
    prctlNumber === undefined ? perlScript : `$prctl = ${prctlNumber};\n${perlScript}`,
    String(port),
    socketPath
  ]
})

export const node = (execPath: string): Bridge => ({
  kind: "node",
  prefix: ({ port, socketPath }) => [execPath, "-e", nodeScript, String(port), socketPath]
})

/**
 * The cheapest bridge this machine has, by start-up per command (docs/sandbox-network.md has the figures): perl,
 * else socat with bash, else the Node.js running weft (always there, several times slower to start).
 */
export const detect: Effect.Effect<Bridge> = Effect.map(Variables.value("PATH"), (path) => {
  const perlPath = onPath("perl", path)
  if (perlPath !== undefined) return perl(perlPath)
  const socatPath = onPath("socat", path)
  const bashPath = onPath("bash", path)
  return socatPath !== undefined && bashPath !== undefined ? socat({ socat: socatPath, bash: bashPath }) : node(process.execPath)
})

/**
 * The variables to set in a sandboxed command's environment (over the inherited ones): the proxy for HTTP(S)
 * clients and a SOCKS5 one (same port) for the rest; Node's fetch told to honour them. Loopback names the policy
 * does not list are in NO_PROXY, so a server the command starts inside the sandbox stays reachable directly; a
 * listed one is not, so it goes through the proxy, which connects to the host's loopback.
 */
export const environment = (policy: NetworkPolicy.Policy, port: number): Record<string, string> => {
  const proxy = `http://127.0.0.1:${port}`
  const socks = `socks5h://127.0.0.1:${port}`
  const listed = new Set(NetworkPolicy.listedLoopback(policy))
  const direct = ["localhost", "127.0.0.1", "::1"].filter((host) => !listed.has(host)).join(",")
  return {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    ALL_PROXY: socks,
    all_proxy: socks,
    NO_PROXY: direct,
    no_proxy: direct,
    NODE_USE_ENV_PROXY: "1"
  }
}
