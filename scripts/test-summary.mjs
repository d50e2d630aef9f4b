// Sums the JSON reports of Vitest and Playwright into one line CI can read: "N passed, N failed, N skipped".
import fs from 'node:fs';

let passed = 0,
  failed = 0,
  skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0) {
  console.log('No test ran: that is a failure.');
  process.exit(1);
}
process.exit(failed > 0 ? 1 : 0);
