import { existsSync, readFileSync } from 'node:fs';

// CPU time from /proc (Linux ticks): per server, which is stabler than requests/s on a shared machine, and for the
// whole machine, because CPU that other processes take during a run skews it.
const TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  at: number;
  /** Busy ticks of the whole machine. */
  busy: number;
  /** utime + stime of each process watched. */
  ticks: Map<number, number>;
  /** The same of each one's main thread: a Node.js server's JavaScript runs there, so it caps the requests/s. */
  mainThreadTicks: Map<number, number>;
  /** This process's own ticks, and those of its children that have exited (wrk, once a run is over). */
  self: number;
  children: number;
}

/** Ticks of the machine, this process, its finished children and each of `pids`. */
export function cpuSnapshot(pids: number[]): CpuSnapshot {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).map(Number);
  const self = statFields(`/proc/${process.pid}/stat`);
  return {
    at: performance.now(),
    busy: user + nice + system + irq + softirq + steal,
    ticks: new Map(pids.map((pid) => [pid, processTicks(pid)])),
    mainThreadTicks: new Map(pids.map((pid) => [pid, processTicks(pid, `/proc/${pid}/task/${pid}/stat`)])),
    self: self ? self.utime + self.stime : 0,
    children: self ? self.cutime + self.cstime : 0,
  };
}

/** CPU seconds that `pids` used between two snapshots; a pid missing from `before` started in between. */
export function cpuSeconds(before: CpuSnapshot, after: CpuSnapshot, pids: number[]): number {
  // A process gone by `after` reads 0 there: its ticks are lost, not subtracted.
  return pids.reduce((sum, pid) => sum + Math.max(0, (after.ticks.get(pid) ?? 0) - (before.ticks.get(pid) ?? 0)), 0) / TICKS_PER_SECOND;
}

/** As cpuSeconds, for the main thread of `pid`. */
export function mainThreadSeconds(before: CpuSnapshot, after: CpuSnapshot, pid: number): number {
  return Math.max(0, (after.mainThreadTicks.get(pid) ?? 0) - (before.mainThreadTicks.get(pid) ?? 0)) / TICKS_PER_SECOND;
}

/** Cores kept busy, on average, by the children of this process that exited in between (wrk). */
export function childCores(before: CpuSnapshot, after: CpuSnapshot): number {
  return (after.children - before.children) / elapsedTicks(before, after);
}

/** Cores kept busy, on average, by everything but this process, its children and the pids of `after`. */
export function otherCores(before: CpuSnapshot, after: CpuSnapshot): number {
  const ours = (snapshot: CpuSnapshot) => snapshot.self + snapshot.children;
  const watched = [...after.ticks.keys()];
  const used = ours(after) - ours(before) + cpuSeconds(before, after, watched) * TICKS_PER_SECOND;
  return Math.max(0, after.busy - before.busy - used) / elapsedTicks(before, after);
}

const elapsedTicks = (before: CpuSnapshot, after: CpuSnapshot) => ((after.at - before.at) / 1000) * TICKS_PER_SECOND;

function processTicks(pid: number, path = `/proc/${pid}/stat`): number {
  const fields = statFields(path);
  return fields ? fields.utime + fields.stime : 0; // a server that crashed shows up as failed requests instead
}

/** A thread's stat file has the same fields as its process's. */
function statFields(path: string): { utime: number; stime: number; cutime: number; cstime: number } | undefined {
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  // Fields are counted from after the command name, which is in parentheses and may hold spaces.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
  return { utime: fields[11], stime: fields[12], cutime: fields[13], cstime: fields[14] };
}
