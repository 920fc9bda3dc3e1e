"""Reading the policy and the lock."""

import unittest
from pathlib import Path

from runtime_builder import policy

REPO = Path(__file__).resolve().parents[3]
POLICY = """
[[module]]
name = "numpy"
distribution = "numpy"
reason = "r"

[[module]]
name = "math"
distribution = "stdlib"
reason = "r"

[[module]]
name = "mpl_toolkits"
distribution = "matplotlib"
reason = "r"

[[module]]
name = "matplotlib"
distribution = "matplotlib"
reason = "r"

[[runtime_extra]]
distribution = "h5py"
reason = "r"
"""


class Policy(unittest.TestCase):
    def test_distributions_leave_out_stdlib_and_count_each_once(self):
        d = policy.distributions(POLICY)
        self.assertEqual(d.policy, ("matplotlib", "numpy"))
        self.assertEqual(d.runtime_extra, ("h5py",))
        self.assertEqual(d.all, ("h5py", "matplotlib", "numpy"))

    def test_a_module_without_distribution_is_an_error(self):
        with self.assertRaisesRegex(policy.InputError, "module `x` has no distribution"):
            policy.distributions('[[module]]\nname = "x"\nreason = "r"\n')

    def test_module_names(self):
        self.assertEqual(policy.module_names(POLICY), ["numpy", "math", "mpl_toolkits", "matplotlib"])


class Lock(unittest.TestCase):
    def test_pins_normalise_names_and_skip_comments(self):
        got = policy.pins("# c\nPython_DateUtil==4.0.0  # why\n\nnumpy==2.4.6\n")
        self.assertEqual(got, {"python-dateutil": ("Python_DateUtil", "4.0.0"), "numpy": ("numpy", "2.4.6")})

    def test_a_range_is_not_a_pin(self):
        with self.assertRaisesRegex(policy.InputError, "is not `name==version`"):
            policy.pins("numpy>=2\n")

    def test_unpinned_and_lock_text_round_trip(self):
        d = policy.distributions(POLICY)
        self.assertEqual(policy.unpinned(d, policy.pins("numpy==2\n")), ["h5py", "matplotlib"])
        text = policy.lock_text([("numpy", "2"), ("h5py", "3"), ("matplotlib", "3.11")])
        self.assertEqual(policy.unpinned(d, policy.pins(text)), [])
        self.assertEqual([ln for ln in text.splitlines() if not ln.startswith("#")],
                         ["h5py==3", "matplotlib==3.11", "numpy==2"])

    def test_the_repository_lock_pins_every_distribution_its_policy_names(self):
        d = policy.distributions((REPO / "python-runtime/allowlist.toml").read_text(encoding="utf-8"))
        locked = policy.pins((REPO / "python-runtime/runtime-lock.txt").read_text(encoding="utf-8"))
        self.assertEqual(policy.unpinned(d, locked), [])


if __name__ == "__main__":
    unittest.main()
