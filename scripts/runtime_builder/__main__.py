"""`python -I scripts/runtime_builder/__main__.py ...` (what scripts/build-runtime runs) or
`python -m runtime_builder ...` with scripts/ on sys.path."""

import sys
from pathlib import Path

if not __package__:
    # Run as a file under -I, which leaves this folder off sys.path: put scripts/ there.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runtime_builder.cli import main

sys.exit(main())
