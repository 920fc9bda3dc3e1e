// Unit test of the release gate (run by scripts/runtime_builder/tests/test_workflow.py): node selftest-gate.test.js
const { gate } = require("./selftest-gate.js");
const win = (missing, extra = []) => ({ ok: true, checks: [], confinement: { summary: "", enforced: [
  "AppContainer org.pdfagent.pdfagent.worker (files: only the granted folders; low integrity)",
  "no network capability (no connections, loopback included)",
  "other workers kept out (process, threads and new objects: the user, SYSTEM and this run's capability only)",
  "job object (no child processes, memory 4096 MiB, cpu 120 s, killed with its launcher)", ...extra], missing } });
const assert = require("assert");
assert.deepStrictEqual(gate(win(["file-size limit (1024 MiB not enforceable by a job object)", "job UI limits (reading the clipboard; the job is nested in one that forbids breakaway)"]), "windows"), []);
assert.strictEqual(gate(win(["process limit (the job allows child processes)"]), "windows").length, 1);
const noJob = win([]); noJob.confinement.enforced.pop(); assert.strictEqual(gate(noJob, "windows").length, 1);
const notOk = win([]); notOk.ok = false; assert.strictEqual(gate(notOk, "windows").length, 1);
const mac = { ok: true, confinement: { enforced: ["seatbelt (files, network, process exec/fork, mach services, sysctl)", "rlimits (memory 4096 MiB beyond the 900 MiB mapped at start and the runtime's 170 MiB of libraries, cpu 120 s)"], missing: [] } };
assert.deepStrictEqual(gate(mac, "macos"), []);
mac.confinement.missing = ["memory limit (x)"]; assert.strictEqual(gate(mac, "macos").length, 1);
assert.deepStrictEqual(gate({ ok: true, confinement: { enforced: [], missing: [] } }, "linux"), []);
console.log("gate ok");
