/** A stop that takes longer than this is cut short: orchestrators kill at 10 s. */
export const SHUTDOWN_DEADLINE_MS = 9_000;

export interface StopSteps {
  log(message: string): void;
  /** Finishes the requests in flight and closes everything the process holds. */
  close(): Promise<void>;
  exit(code: number): void;
}

/**
 * Stops on SIGTERM or SIGINT with exit code 0, or 1 when the stop fails or outlasts the deadline. Nest's
 * enableShutdownHooks re-raises the signal after closing, so the exit status would say "killed"; operators and process
 * managers expect a clean stop to exit 0.
 */
export function stopOnSignals(steps: StopSteps, signals: NodeJS.EventEmitter = process, deadlineMs = SHUTDOWN_DEADLINE_MS): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    // A second signal is common (Ctrl-C reaches npm and the service, and npm forwards it): without a listener, Node
    // would let it kill the process mid-stop.
    if (stopping) return;
    stopping = true;
    const deadline = setTimeout(() => steps.exit(1), deadlineMs).unref();
    steps.log(`${signal} received: finishing in-flight requests, then stopping`);
    try {
      await steps.close();
    } catch (error) {
      steps.log(`The stop failed: ${error instanceof Error ? error.message : String(error)}`);
      steps.exit(1);
      return;
    } finally {
      clearTimeout(deadline);
    }
    steps.exit(0);
  };
  signals.on('SIGTERM', stop);
  signals.on('SIGINT', stop);
}
