// The release gate on one `pdfagent selftest --json` report (issue 45, release.yml).
// Usage: node selftest-gate.js <selftest.json> <linux|windows|macos>
// Prints every check and the confinement line, then fails (exit 1) unless:
// - the report's top-level "ok" is true (every check, every canary, and on Windows the
//   firewall/loopback check, passed);
// - Windows: `enforced` names the AppContainer, the network deny, "other workers kept out"
//   and a job object with no child processes, a memory and a CPU limit and kill-on-close;
//   `missing` holds nothing but the file-size limit (no job limit exists for it) and the
//   job UI limits (allowed only because a job nested in one that forbids breakaway may not
//   have them: confine/windows/nesting.rs);
// - macOS: `enforced` names the Seatbelt profile and the memory limit, and `missing` is empty.
"use strict";
const fs = require("fs");

function gate(report, os) {
  const problems = [];
  if (report.ok !== true) problems.push("the report is not ok");
  const c = report.confinement;
  if (!c) {
    problems.push("the worker reported no confinement");
    return problems;
  }
  const has = (prefix, ...words) =>
    c.enforced.some((e) => e.startsWith(prefix) && words.every((w) => e.includes(w)));
  if (os === "windows") {
    if (!has("AppContainer org.pdfagent.pdfagent.worker")) problems.push("enforced lacks the AppContainer");
    if (!has("no network capability")) problems.push("enforced lacks the network deny");
    if (!has("other workers kept out")) problems.push('enforced lacks "other workers kept out"');
    if (!has("job object (", "no child processes", "memory", "cpu", "killed with its launcher"))
      problems.push("enforced lacks the job limits (one process, memory, CPU, kill-on-close)");
    const allowed = ["file-size limit", "job UI limits"];
    for (const m of c.missing)
      if (!allowed.some((a) => m.startsWith(a))) problems.push(`missing holds more than allowed: ${m}`);
  } else if (os === "macos") {
    if (!has("seatbelt")) problems.push("enforced lacks the Seatbelt profile");
    if (!has("rlimits (", "memory")) problems.push("enforced lacks the memory limit");
    if (c.missing.length > 0) problems.push(`missing is not empty: ${c.missing.join("; ")}`);
  } else if (os !== "linux") {
    problems.push(`unknown OS ${os}`);
  }
  return problems;
}

if (require.main === module) {
  const [file, os] = process.argv.slice(2);
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  for (const c of report.checks || []) console.log(`${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}`);
  if (report.confinement) console.log(report.confinement.summary);
  const problems = gate(report, os);
  for (const p of problems) console.error(`selftest gate (${os}, ${file}): ${p}`);
  process.exit(problems.length === 0 ? 0 : 1);
}

module.exports = { gate };
