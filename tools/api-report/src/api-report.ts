import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { classifySurfaceChange, type SurfaceChange } from './surface-change';

const WORKSPACE = join(__dirname, '../../..');

/** The command that rebuilds the typings and rewrites every report from them (package.json's `api-report`). */
export const UPDATE_COMMAND = 'npm run api-report -- --local';

/**
 * The published surfaces under review. The contract's `dto` entry is left out: only the service imports it, and
 * `@petstore/client` inlines only the plain entry.
 */
export const LIBRARIES = ['libs/client', 'libs/contract'] as const;

export type ApiReportOutcome =
  | { library: string; status: 'unchanged' | 'updated' }
  | { library: string; status: 'changed'; report: string; change: SurfaceChange }
  | { library: string; status: 'failed'; problems: string[] };

const LEVEL_WORDS = {
  major: 'MAJOR (an export removed or changed, or a required member added to an interface)',
  minor: 'minor (exports or members only added or deprecated)',
  patch: 'patch (doc comments only)',
  none: 'none',
} as const;

/**
 * Runs API Extractor on a library's built typings: `local` rewrites the committed report; otherwise a report that
 * differs from it is a failure, the new one left in tmp/api-report.
 */
export function runApiReport(library: string, { local }: { local: boolean }): ApiReportOutcome {
  const config = ExtractorConfig.loadFileAndPrepare(join(WORKSPACE, library, 'api-extractor.json'));
  if (!existsSync(config.mainEntryPointFilePath)) {
    const typings = relative(WORKSPACE, config.mainEntryPointFilePath);
    return { library, status: 'failed', problems: [`${typings} is missing: build first (npx nx run-many -t build -p client contract)`] };
  }
  const problems: string[] = [];
  const result = Extractor.invoke(config, {
    localBuild: local,
    messageCallback: (message: ExtractorMessage) => {
      // Quiet, as the check's own message says what matters; the report change is read from the result instead.
      message.handled = true;
      const counts = message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning;
      if (counts && !message.messageId.startsWith('console-api-report')) problems.push(message.formatMessageWithLocation(WORKSPACE));
    },
  });
  if (problems.length > 0) return { library, status: 'failed', problems };
  if (!result.apiReportChanged) return { library, status: 'unchanged' };
  if (local) return { library, status: 'updated' };
  const fileName = config.reportConfigs[0].fileName;
  const committed = readIfPresent(join(config.reportFolder, fileName));
  const current = readFileSync(join(config.reportTempFolder, fileName), 'utf8');
  return { library, status: 'changed', report: relative(WORKSPACE, join(config.reportFolder, fileName)), change: classifySurfaceChange(committed, current) };
}

/** What a reader of a failed check needs: which surface changed, what it means for the version, how to accept it. */
export function describeOutcome(outcome: ApiReportOutcome): string {
  switch (outcome.status) {
    case 'unchanged':
      return `${outcome.library}: public surface unchanged`;
    case 'updated':
      return `${outcome.library}: report updated; commit it with the change`;
    case 'failed':
      return [`${outcome.library}: API Extractor failed:`, ...outcome.problems.map((problem) => `  ${problem}`)].join('\n');
    case 'changed':
      return [
        `${outcome.library}: the public surface changed and ${outcome.report} was not updated.`,
        `Version change: ${LEVEL_WORDS[outcome.change.level]}.`,
        ...outcome.change.reasons.map((reason) => `  ${reason}`),
        `If the change is meant, update the report and commit it with the change: ${UPDATE_COMMAND}`,
        ...(outcome.change.level === 'major' ? ['A major change waits for the next major version (docs/releasing.md).'] : []),
      ].join('\n');
  }
}

const readIfPresent = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');
