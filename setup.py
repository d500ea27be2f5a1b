"""The package list, which pyproject.toml cannot state: every package found, plus the catalogs' folder."""

from setuptools import find_packages, setup

# Each calculator is a package under its category, so the list is found rather than written out;
# the catalogs are mapped in from locales/ (package-dir in pyproject.toml), where find cannot look.
setup(packages=[*find_packages(include=["calculators*", "languages*", "site_builder*"]), "languages.catalog_files"])
