"""`python -m bench`: run the benchmark (see harness.py)."""

import sys

from bench.harness import main

sys.exit(main())
