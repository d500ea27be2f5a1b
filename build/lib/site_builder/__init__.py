"""The static-site build: calculators × locales → pages, assets and the browser runtime."""
