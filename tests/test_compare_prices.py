"""The script that lists what changed between the pinned genai-prices release and the newest, run on the real
release: unchanged against itself, and a model prices.toml names repriced in a copy of the release's own data."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from site_builder.build import PROJECT
from site_builder.build.presets import read_presets

_SPEC = importlib.util.spec_from_file_location("compare_prices", PROJECT / "scripts" / "compare_prices.py")
assert _SPEC is not None and _SPEC.loader is not None
compare_prices = importlib.util.module_from_spec(_SPEC)
sys.modules["compare_prices"] = compare_prices
_SPEC.loader.exec_module(compare_prices)

NAMED = [price.genai_prices for price in read_presets().prices if price.genai_prices]


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the installed release, as the script unpacks a downloaded one."""
    installed = pytest.importorskip("genai_prices")
    folder = tmp_path_factory.mktemp("release")
    shutil.copytree(Path(installed.__file__).parent, folder / "genai_prices")
    for info in Path(installed.__file__).parent.parent.glob("genai_prices-*.dist-info"):
        shutil.copytree(info, folder / info.name)  # its version comes from here
    return folder


def test_the_pinned_release_holds_every_model_prices_toml_names() -> None:
    pytest.importorskip("genai_prices")
    version, prices = compare_prices.read_release()
    pinned = next(line for line in (PROJECT / "requirements-ground-truth.lock").read_text().splitlines()
                  if line.startswith("genai-prices=="))  # fmt: skip
    assert pinned == f"genai-prices=={version}"
    assert len(prices) > 2000 and set(NAMED) <= set(prices)


def test_the_same_release_is_unchanged(release: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_prices.main(["--newest", str(release)]) == 0
    printed = capsys.readouterr().out
    assert f"Models prices.toml names ({len(NAMED)}): unchanged" in printed
    assert "Others: 0 added, 0 removed, 0 repriced" in printed


def test_a_repriced_model_is_named_and_fails_the_run(release: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = release / "genai_prices" / "data.py"
    text = data.read_text(encoding="utf-8")
    luna = text.index("id='gpt-6-luna'", text.index("id='openai'"))  # OpenAI's own, not a reseller's
    before = "input_mtok=TieredPrices(base=Decimal('0.1')"
    at = text.index(before, luna)
    data.write_text(text[:at] + before.replace("0.1", "0.15") + text[at + len(before) :], encoding="utf-8")
    assert compare_prices.main(["--newest", str(release)]) == 1
    printed = capsys.readouterr().out
    assert "1 changed" in printed and "repriced openai:gpt-6-luna" in printed
    was, now = printed.split("was", 1)[1].split("now", 1)
    assert "base=Decimal('0.1')" in was and "base=Decimal('0.15')" in now


def test_a_repriced_model_the_dataset_file_offers_fails_the_run(
    release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A model only prices_dataset.toml offers (Voyage AI's voyage-3, 0.06 per million): the menus show its old
    # price until the pin moves and the file is written again. (The copy is of the release the test above changed.)
    copy = tmp_path / "release"
    shutil.copytree(release, copy)
    data = copy / "genai_prices" / "data.py"
    text = data.read_text(encoding="utf-8")
    voyage = text.index("id='voyage-3',", text.index("id='voyageai'"))
    before = "input_mtok=Decimal('0.06')"
    at = text.index(before, voyage)
    data.write_text(text[:at] + before.replace("0.06", "0.07") + text[at + len(before) :], encoding="utf-8")
    assert compare_prices.main(["--newest", str(copy)]) == 1
    printed = capsys.readouterr().out
    assert "repriced voyageai:voyage-3" not in printed  # prices.toml names it not: counted, not listed
    assert "1 changed; update the pin and run scripts/snapshot_prices.py" in printed
