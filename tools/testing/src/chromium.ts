import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`), which playwright-core drives: no browser download. */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium for a browser test. */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

/**
 * Whether `what` (a browser suite) runs: where Chromium is installed, and always under CI, which installs it, so that
 * there a missing binary is a broken runner that fails rather than skips. Elsewhere it says how to install it.
 */
export function chromiumRuns(what: string): boolean {
  const run = existsSync(CHROMIUM) || process.env.CI === 'true';
  if (!run) console.warn(`Skipping ${what}: ${CHROMIUM} not found (apt-get install -y chromium).`);
  return run;
}
