"""Run the site builder's command line: `python -m site_builder`."""

from .cli import main

raise SystemExit(main())
