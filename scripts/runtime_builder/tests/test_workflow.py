"""release.yml builds the runtime with the same entry point on every OS (its schema is checked
by check-jsonschema in scripts/test; this checks what the schema cannot)."""

import re
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

    def test_no_second_builder_is_named(self):
        self.assertNotIn("build-runtime-standalone", self.text)
        self.assertFalse((REPO / "scripts/build-runtime-standalone.py").exists())


if __name__ == "__main__":
    unittest.main()
