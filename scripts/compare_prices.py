"""What changed in pydantic's genai-prices dataset between the release the tests pin and the newest one.

    .venv/bin/python scripts/compare_prices.py [--newest FOLDER]

The tests hold every list price in `site_builder/data/prices.toml` that names a model there (its `genai_prices`
key) to the pinned release (`requirements-ground-truth.lock`). This script downloads the newest release with pip
(or reads one already unpacked in FOLDER), reads each release's prices in a Python of its own, and lists the models
added, removed and repriced: first those `prices.toml` names, then how many others, and how many of those the
menus offer from `prices_dataset.toml`. It exits with 1 when a model `prices.toml` names was repriced or removed
(the entry then needs its vendor's page read again), or one the dataset file offers (update the pin and run
`scripts/snapshot_prices.py`), so that a scheduled run (`.github/workflows/prices.yml`) says so. The build's own
warning about prices read over a year ago stays.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from site_builder.build.presets import read_presets  # noqa: E402  (the project, from wherever this runs)

_READ = (
    "import json, genai_prices, genai_prices.data as d\n"
    "print(json.dumps({'version': genai_prices.__version__, 'prices': "
    "{f'{p.id}:{m.id}': repr(m.prices) for p in d.providers for m in p.models}}))"
)
"""Run in a Python of its own for each release: every model's prices as the dataset writes them (its repr names each
price, its unit and its tiers), keyed "provider:model" as prices.toml's genai_prices keys are."""


@dataclass(frozen=True)
class Changes:
    """What differs between two releases' prices."""

    added: tuple[str, ...]
    removed: tuple[str, ...]
    repriced: tuple[tuple[str, str, str], ...]
    """(model, its prices in the older release, in the newer)."""


def read_release(folder: Path | None = None) -> tuple[str, dict[str, str]]:
    """The version and the prices of the release installed (or of the one unpacked in `folder`)."""
    env = {**os.environ, "PYTHONPATH": str(folder)} if folder else None
    run = subprocess.run([sys.executable, "-c", _READ], capture_output=True, text=True, check=True, env=env)
    read = json.loads(run.stdout)
    return str(read["version"]), dict(read["prices"])


def compare(older: Mapping[str, str], newer: Mapping[str, str]) -> Changes:
    """The models added, removed and repriced from `older` to `newer`.

    >>> compare({"a:x": "$1/input MTok", "a:y": "$2/input MTok"}, {"a:x": "$1.5/input MTok", "b:z": "$3/input MTok"})
    Changes(added=('b:z',), removed=('a:y',), repriced=(('a:x', '$1/input MTok', '$1.5/input MTok'),))
    """
    return Changes(
        added=tuple(sorted(set(newer) - set(older))),
        removed=tuple(sorted(set(older) - set(newer))),
        repriced=tuple(
            (key, older[key], newer[key]) for key in sorted(set(older) & set(newer)) if older[key] != newer[key]
        ),
    )


def report(
    changes: Changes, named: Sequence[str], versions: tuple[str, str], offered: Sequence[str] = ()
) -> tuple[str, bool]:
    """The report's text, and whether a model prices.toml names, or one prices_dataset.toml offers, was repriced or
    removed."""
    ours = set(named)
    lines = [f"genai-prices {versions[0]} (pinned) → {versions[1]} (newest)"]
    touched = [f"  repriced {key}:\n    was {old}\n    now {new}" for key, old, new in changes.repriced if key in ours]
    touched += [f"  removed {key}" for key in changes.removed if key in ours]
    lines.append(
        f"Models prices.toml names ({len(ours)}): " + ("unchanged" if not touched else f"{len(touched)} changed")
    )
    lines += touched
    others = len([c for c in changes.repriced if c[0] not in ours])
    lines.append(
        f"Others: {len(changes.added)} added, {len([k for k in changes.removed if k not in ours])} removed, "
        f"{others} repriced"
    )
    dataset = set(offered) - ours
    stale = [key for key, _, _ in changes.repriced if key in dataset] + [k for k in changes.removed if k in dataset]
    lines.append(
        f"Of them, models prices_dataset.toml offers ({len(dataset)}): "
        + ("unchanged" if not stale else f"{len(stale)} changed; update the pin and run scripts/snapshot_prices.py")
    )
    return "\n".join(lines), bool(touched or stale)


def _newest(scratch: Path) -> Path:
    """Download the newest release with pip and unpack it."""
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", str(scratch), "genai-prices"],
        check=True,
    )
    wheel = next(scratch.glob("genai_prices-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(scratch / "unpacked")
    return scratch / "unpacked"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--newest", type=Path, help="a release already unpacked here, instead of downloading one")
    args = parser.parse_args(argv)
    presets = read_presets()
    named = [price.genai_prices for price in presets.prices if price.genai_prices]
    offered = [price.genai_prices for price in presets.dataset]
    pinned_version, pinned = read_release()
    with tempfile.TemporaryDirectory() as scratch:
        newest_version, newest = read_release(args.newest or _newest(Path(scratch)))
    text, touched = report(compare(pinned, newest), named, (pinned_version, newest_version), offered)
    print(text)
    return 1 if touched else 0


if __name__ == "__main__":
    raise SystemExit(main())
