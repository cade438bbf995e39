// npm run api-report [-- --local]: the check of npm test from the command line, or, with --local, the reports rewritten
// from the built typings (package.json builds them first).
import { describeOutcome, LIBRARIES, runApiReport } from './api-report';

const local = process.argv.includes('--local');
const outcomes = LIBRARIES.map((library) => runApiReport(library, { local }));
for (const outcome of outcomes) console.log(describeOutcome(outcome));
const failed = outcomes.some(({ status }) => status === 'failed' || status === 'changed');
process.exitCode = failed ? 1 : 0;
