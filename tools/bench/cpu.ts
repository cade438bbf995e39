import { existsSync, readFileSync } from 'node:fs';

// The machine may be shared (builds, tests): CPU that other processes take during a run skews it, so each run
// records how many cores everything but the benchmark and its servers kept busy, from /proc (Linux ticks).
const TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  at: number;
  busy: number;
  ours: number;
}

export function cpuSnapshot(pids: number[]): CpuSnapshot {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).map(Number);
  const ours = [process.pid, ...pids].reduce((sum, pid) => sum + processTicks(pid), 0);
  return { at: performance.now(), busy: user + nice + system + irq + softirq + steal, ours };
}

/** Cores kept busy by other processes between two snapshots, on average. */
export function otherCores(before: CpuSnapshot, after: CpuSnapshot): number {
  const ticks = ((after.at - before.at) / 1000) * TICKS_PER_SECOND;
  return Math.max(0, after.busy - before.busy - (after.ours - before.ours)) / ticks;
}

function processTicks(pid: number): number {
  if (!existsSync(`/proc/${pid}/stat`)) return 0; // a server that crashed shows up as failed requests instead
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces; utime and stime are 14th and 15th.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
