import { execFileSync } from 'node:child_process';

let usable: boolean | undefined;

/** Whether this process may add iptables rules: root, with the command installed (`.ci/run` installs it). */
export function iptablesUsable(): boolean {
  if (usable === undefined) {
    try {
      execFileSync('iptables', ['-w', '-S', 'INPUT'], { stdio: 'ignore' });
      usable = true;
    } catch {
      usable = false;
    }
  }
  return usable;
}

/**
 * Black-holes a TCP port on loopback, both ways, as a dead host or a changed route would: SYNs and segments dropped,
 * no reset, so that connections hang rather than fail. Returns the heal, after which TCP retransmits on its own
 * schedule. Use it on a port only the test uses (a relay's, a private server's, an instance's): others would hang too.
 */
export function blackHole(port: number): () => void {
  const rules = [
    ['INPUT', '-i', 'lo', '-p', 'tcp', '--dport', String(port), '-j', 'DROP'],
    ['INPUT', '-i', 'lo', '-p', 'tcp', '--sport', String(port), '-j', 'DROP'],
  ];
  for (const rule of rules) execFileSync('iptables', ['-w', '-I', ...rule]);
  let healed = false;
  const heal = () => {
    if (healed) return;
    healed = true;
    process.off('exit', heal);
    for (const rule of rules) execFileSync('iptables', ['-w', '-D', ...rule]);
  };
  // A test that fails mid-cut must not leave a later test, given the same port, talking into a hole.
  process.once('exit', heal);
  return heal;
}
