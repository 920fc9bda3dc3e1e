"""release.yml builds the runtime with the same entry point on every OS (its schema is checked
by check-jsonschema in scripts/test; this checks what the schema cannot)."""

import json
import re
import subprocess
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
WORKFLOW = REPO / ".github/workflows/release.yml"


def steps(text):
    """The steps of the workflow's jobs, as text blocks (`      - ` starts one)."""
    return re.split(r"\n      - ", text)[1:]


class ReleaseWorkflow(unittest.TestCase):
    def setUp(self):
        self.text = WORKFLOW.read_text(encoding="utf-8")

    def test_one_runtime_step_for_every_os(self):
        runtime = [s for s in steps(self.text) if "build-runtime" in s and "run:" in s]
        self.assertEqual(len(runtime), 1, runtime)
        step = runtime[0]
        self.assertNotRegex(step, r"\n\s+if:", "the runtime step must not be limited to one OS")
        self.assertRegex(step, r"scripts/build-runtime --python-home \"\$PBS_HOME\"")

    def test_the_matrix_covers_the_three_oses(self):
        for os_label in ("ubuntu-", "windows-", "macos-"):
            self.assertIn(f"os: {os_label}", self.text)

    def test_each_os_is_proven_as_a_user_meets_it(self):
        """Issue 45: the proofs the schema cannot see."""
        text = self.text
        # macOS: a quarantined download, installed with ditto, verified without `|| true`.
        self.assertLess(text.index("xattr -w com.apple.quarantine"), text.index("hdiutil attach"))
        self.assertIn('ditto "$mnt/PDFAgent.app"', text)
        self.assertNotIn('cp -R "$mnt', text)
        for line in text.splitlines():
            if "codesign --verify" in line:
                self.assertNotIn("|| true", line, line)
        for tool in ("spctl -a -vv -t exec", "xcrun stapler validate", "sender == \"Sandbox\""):
            self.assertIn(tool, text)
        # Windows: signing, both selftests through the gate, the MSI, the ACL listings.
        self.assertIn("signtool", text)
        self.assertGreaterEqual(text.count(".github/scripts/selftest-gate.js"), 2)
        self.assertIn("Register-ScheduledTask", text)
        self.assertIn("ALLUSERS=1", text)
        self.assertIn("S-1-15-3-1024-", text)
        self.assertTrue((REPO / ".github/scripts/selftest-gate.js").is_file())

    def test_the_runtime_is_granted_at_install_time(self):
        """Issue 45: the NSIS post-install hook runs `pdfagent grant-runtime`; the workflow
        checks the completion mark it leaves and times a first grant."""
        conf = json.loads((REPO / "src-tauri/tauri.bundle.windows.conf.json").read_text())
        hooks = REPO / "src-tauri" / conf["bundle"]["windows"]["nsis"]["installerHooks"]
        text = hooks.read_text(encoding="utf-8")
        self.assertIn("!macro NSIS_HOOK_POSTINSTALL", text)
        self.assertIn('"$INSTDIR\\${MAINBINARYNAME}.exe" grant-runtime', text)
        self.assertIn("GrantRuntime(", (REPO / "src-tauri/src/cli/mod.rs").read_text())
        self.assertIn("marker-sddl-after-install.txt", self.text)
        self.assertIn('-ArgumentList "grant-runtime"', self.text)
        self.assertIn("its lasting read access", self.text)

    def test_no_retired_runner_image(self):
        # macos-13 was retired in December 2025; a job on it never starts.
        self.assertNotRegex(self.text, r"os: macos-1[0-3]\b")
        self.assertIn("os: macos-15-intel", self.text)

    def test_the_selftest_gate_passes_and_refuses_what_it_should(self):
        # Node is part of every build here (ui/); the gate's own cases.
        test = REPO / ".github/scripts/selftest-gate.test.js"
        run = subprocess.run(["node", str(test)], capture_output=True, text=True, check=False)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("gate ok", run.stdout)

    def test_no_second_builder_is_named(self):
        self.assertNotIn("build-runtime-standalone", self.text)
        self.assertFalse((REPO / "scripts/build-runtime-standalone.py").exists())


if __name__ == "__main__":
    unittest.main()
