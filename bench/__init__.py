"""The benchmark: build time, page weight and time to the first live edit, against peers measured in the same run.

Run it from a checkout with `python -m bench`; it is not part of the installed package.
"""
