import { describe, expect, it } from '@jest/globals';
import { describeOutcome, LIBRARIES, runApiReport } from './api-report';

// The check of npm test: each public surface, as API Extractor reads it from the built typings, against its
// committed report. A failure prints what changed, whether it is a major or a minor change, and the update command.
describe('API reports', () => {
  it.each(LIBRARIES)('%s: the committed report matches the built typings', (library) => {
    const outcome = runApiReport(library, { local: false });

    if (outcome.status !== 'unchanged') throw new Error(describeOutcome(outcome));
    expect(outcome.status).toBe('unchanged');
  });
});
