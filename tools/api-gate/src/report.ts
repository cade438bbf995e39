import type { GateReport } from './api-gate';
import { formatFinding } from './finding';

/** The gate's verdict for a person: every finding, then what it means for the version. */
export function formatReport(report: GateReport, released: string, current: string): string {
  const lines = [`Compared ${current} (info.version ${report.currentVersion}) with ${released} (${report.releasedVersion}).`];
  lines.push(...[...report.breaking, ...report.undecided, ...report.minor].map(formatFinding));
  if (report.change === 'none') lines.push('No change to the contract.');
  else if (report.change === 'minor') lines.push('Additive changes only: the next release is a minor version.');
  else if (report.refused) {
    lines.push(
      `REFUSED: ${report.breaking.length} breaking change(s)${report.undecided.length > 0 ? ` and ${report.undecided.length} the gate cannot weigh` : ''} ` +
        `to the released contract. Make the change additive, or cut a new major version (docs/releasing.md, "What ` +
        `counts as breaking, and the gate").`,
    );
  } else lines.push(`Breaking changes, allowed by the new major version ${report.currentVersion}.`);
  return `${lines.join('\n')}\n`;
}
