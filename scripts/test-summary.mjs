// Sums the JSON reports of Vitest and Playwright into one line CI can read: "N passed, N failed, N skipped".
// Above it, each failed test with the first lines of its error: CI keeps only the end of a run's output.
import fs from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const failures = [];
const firstLines = (text) =>
  stripVTControlCharacters(String(text ?? ''))
    .split('\n')
    .slice(0, 4)
    .join(' / ')
    .slice(0, 400);

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
    for (const file of report.testResults)
      for (const test of file.assertionResults)
        if (test.status === 'failed')
          failures.push(`${file.name} › ${test.fullName ?? test.title}: ${firstLines(test.failureMessages?.[0])}`);
    // A file that failed before any test ran (an import or a beforeAll) has a message of its own.
    for (const file of report.testResults)
      if (file.status === 'failed' && file.message) failures.push(`${file.name}: ${firstLines(file.message)}`);
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    const visit = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? [])
          if (test.status === 'unexpected') {
            const error = test.results?.at(-1)?.error?.message;
            failures.push(`${spec.file}:${spec.line} › ${spec.title}: ${firstLines(error)}`);
          }
      for (const child of suite.suites ?? []) visit(child);
    };
    for (const suite of report.suites ?? []) visit(suite);
  }
}
if (failures.length > 0) {
  console.log(`failed (${failures.length}):`);
  for (const line of failures.slice(0, 30)) console.log(`  ${line}`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0) {
  console.log('No test ran: that is a failure.');
  process.exit(1);
}
process.exit(failed > 0 ? 1 : 0);
