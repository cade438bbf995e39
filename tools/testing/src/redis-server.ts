import { type ChildProcess, spawn } from 'node:child_process';
import { waitForPort } from './port-open';

/**
 * A Redis of a test's own on `port`, keeping nothing on disk as the shared one is run: what it counts is that test's
 * alone, and the test may stop, restart or pause it without disturbing the suites that use the shared one.
 */
export async function startRedis(port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (!(await waitForPort(port))) throw new Error(`Redis on port ${port} did not start`);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
