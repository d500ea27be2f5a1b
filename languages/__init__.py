"""The site's languages: each locale's CLDR facts and its gettext catalog, for the build and the command line.

Not part of the pure core: it reads files and uses Babel. `calculators/__main__.py` (the command
line's `--lang`) and the site builder both stand on it, so neither needs the other.
"""
