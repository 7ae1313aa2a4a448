// Prints the failed tests of a Vitest JSON report (`--reporter=json --outputFile.json=FILE`), each with the first
// lines of its error. scripts/test.sh calls it at the very end of a failed run: CI shows a run's last lines, and the
// default reporter's failure details scroll far above them.
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";

const MESSAGE_LINES = 6;

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    console.log(`(could not read the test report ${file}: ${error.message})`);
    continue;
  }
  for (const suite of report.testResults ?? []) {
    const where = path.relative(process.cwd(), suite.name);
    const failed = (suite.assertionResults ?? []).filter((test) => test.status === "failed");
    // A file can fail outside any test (an import error, a hook that threw): its message is on the file.
    if (failed.length === 0 && suite.status === "failed") {
      console.log(`FAILED ${where}`);
      printMessage(suite.message);
    }
    for (const test of failed) {
      console.log(`FAILED ${where} > ${test.fullName}`);
      printMessage((test.failureMessages ?? []).join("\n"));
    }
  }
}

function printMessage(message) {
  const lines = String(message ?? "")
    .split("\n")
    // The message and the test's own frames: the runner's and Node's frames say nothing about the failure.
    .filter((line) => line.trim() !== "" && !/node_modules|\(node:|at node:|at new Promise/.test(line))
    .slice(0, MESSAGE_LINES);
  for (const line of lines) console.log(`    ${line.slice(0, 300)}`);
}
