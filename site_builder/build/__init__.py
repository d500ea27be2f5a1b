"""The build: one recipe (`recipe.py`) that reads the calculators, catalogs and data and writes the site."""

from .recipe import PROJECT, Assembly, BuildConfig, assemble, build, read_catalogs

__all__ = ["PROJECT", "Assembly", "BuildConfig", "assemble", "build", "read_catalogs"]
