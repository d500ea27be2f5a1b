"""A model by its Hub id: the command line and the library read its config.json and safetensors headers.

The Hub is `tests/hub_server.py` on loopback, holding checkpoints transformers itself saved (tiny models with real
weights, one sharded with its index); huggingface_hub's own client is run against it first, so the server is known
to speak the Hub's protocol, and its reading of the headers is the ground truth for ours.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from huggingface_hub import HfApi, hf_hub_download
from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError

from calculators import LocaleKit, find
from calculators.__main__ import main
from calculators.hub import HubError, fetch_model, inputs_from_hub
from calculators.kernel.numbers import format_number
from calculators.report import hub_problem, read_checkpoint, read_config
from calculators.vocabulary.checkpoint import combine, read_header
from calculators.vocabulary.model_config import read_model_config

from .helpers import results
from .hub_server import BARE, GEMMA, GPT2, LLAMA, Hub, save_tiny_checkpoints, serve_hub

VRAM = find("llm-inference-vram")


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    return save_tiny_checkpoints(tmp_path_factory.mktemp("hub"))


@pytest.fixture
def hub(checkpoints: dict[str, tuple[Path, int]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Hub]:
    repos = {repo: folder for repo, (folder, _) in checkpoints.items()} | {"meta/gated": checkpoints[LLAMA][0]}
    with serve_hub(Hub(repos=repos, gated=frozenset({"meta/gated"}), renamed={"old/llama": LLAMA})) as served:
        monkeypatch.setenv("HF_ENDPOINT", served.url)
        monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
        monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
        monkeypatch.delenv("HF_TOKEN", raising=False)
        yield served


def test_huggingface_hub_reads_the_loopback_hub_as_it_reads_the_hub(
    hub: Hub, checkpoints: dict[str, tuple[Path, int]]
) -> None:
    api = HfApi(endpoint=hub.url, token=False)
    for repo in (LLAMA, GPT2, GEMMA):
        metadata = api.get_safetensors_metadata(repo)
        assert sum(metadata.parameter_count.values()) == checkpoints[repo][1]
        ours = combine(read_header(header) for header in fetch_model(repo).headers)
        assert dict(ours.numbers) == metadata.parameter_count
    assert api.get_safetensors_metadata(LLAMA).sharded  # several files and their index
    config = hf_hub_download("old/llama", "config.json", endpoint=hub.url, token=False)  # a renamed repository
    assert json.loads(Path(config).read_text())["model_type"] == "llama"
    with pytest.raises(GatedRepoError):
        hf_hub_download("meta/gated", "config.json", endpoint=hub.url, token=False)
    with pytest.raises(RepositoryNotFoundError):
        hf_hub_download("nobody/nothing", "config.json", endpoint=hub.url, token=False)


def test_only_the_headers_are_read(hub: Hub) -> None:
    fetched = fetch_model(LLAMA)
    assert len(fetched.files) == len(fetched.headers) >= 3 and fetched.files[0].startswith("model-00001-of-")
    storage = [(method, ranged) for method, path, ranged in hub.requests if path.startswith("/storage/")]
    assert storage and all(method == "GET" and ranged.startswith("bytes=0-") for method, ranged in storage)
    sizes = [int(ranged.removeprefix("bytes=0-")) + 1 for _, ranged in storage]
    assert sizes[::2] == [8] * len(fetched.files)  # the length, then the header: never the weights
    assert sizes[1::2] == [8 + len(header.encode()) for header in fetched.headers]


def _cli(*arguments: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any] | str, str]:
    status = main(list(arguments))
    captured = capsys.readouterr()
    return status, json.loads(captured.out) if "--json" in arguments and status == 0 else captured.out, captured.err


def test_the_command_line_fills_a_calculator_from_a_model_id(
    hub: Hub, checkpoints: dict[str, tuple[Path, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, said = _cli("llm-inference-vram", "--model", LLAMA, "--json", "--bits_per_weight", "16", capsys=capsys)
    assert status == 0 and isinstance(out, dict)
    parameters = checkpoints[LLAMA][1]
    assert out["inputs"]["layers"] == "2" and out["inputs"]["kv_heads"] == "2"
    assert float(out["inputs"]["params_billion"]) * 1e9 == pytest.approx(parameters, rel=1e-3)
    assert f"hold {parameters:,} parameters" in said
    # The library gives the same inputs and sentence.
    library = inputs_from_hub("llm-inference-vram", LLAMA)
    assert library.ok and {name: out["inputs"][name] for name in library.values} == dict(library.values)
    assert library.message == said.strip()
    # An option given beside the model wins over what the model states.
    status, out, _ = _cli("llm-inference-vram", "--model", LLAMA, "--json", "--layers", "7", capsys=capsys)
    assert status == 0 and isinstance(out, dict) and out["inputs"]["layers"] == "7"


def test_a_multimodal_model_counts_its_vision_tower_from_the_checkpoint(
    hub: Hub, checkpoints: dict[str, tuple[Path, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, said = _cli("llm-inference-vram", "--model", GEMMA, "--json", capsys=capsys)
    parameters = checkpoints[GEMMA][1]
    assert status == 0 and isinstance(out, dict)
    # The configuration's formula counts the language model; the checkpoint holds the vision tower too.
    assert float(out["inputs"]["params_billion"]) * 1e9 == pytest.approx(parameters, rel=1e-3)
    assert f"{parameters:,} parameters" in said


@pytest.mark.parametrize(
    ("repo", "setup", "message"),
    [
        ("meta/gated", None, "This model is gated"),
        ("nobody/nothing", None, "The Hub has no public model by this id"),
        ("not an id", None, "Type a model id as the Hub writes it"),
        (LLAMA, "revision", "This model has no such revision"),
        (LLAMA, "rate", "The Hub asks to wait 42 seconds"),
        (LLAMA, "offline", "The Hub could not be reached"),
    ],
)
def test_what_goes_wrong_is_said_and_nothing_is_computed(
    hub: Hub,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    repo: str,
    setup: str | None,
    message: str,
) -> None:
    if setup == "rate":
        hub.rate_limited = True
    if setup == "offline":
        monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # the discard port: nothing listens
    revision = ("--revision", "v9") if setup == "revision" else ()
    status, out, said = _cli("llm-inference-vram", "--model", repo, *revision, capsys=capsys)
    assert status == 2 and out == "" and said.startswith(message)


def test_a_model_without_safetensors_is_counted_from_its_configuration(
    hub: Hub, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, said = _cli("llm-inference-vram", "--model", BARE, "--json", capsys=capsys)
    assert status == 0 and isinstance(out, dict) and out["inputs"]["layers"] == "2"
    assert said.rstrip().endswith("It has no safetensors files, so the parameters were counted from the configuration.")


def test_the_messages_are_in_the_readers_language(
    hub: Hub, kits: dict[str, LocaleKit], capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, said = _cli("llm-inference-vram", "--model", "meta/gated", "--lang", "de", capsys=capsys)
    german, english = hub_problem("gated", 0, kits["de"]), hub_problem("gated", 0, kits["en"])
    assert status == 2 and said.strip() == german != english
    with pytest.raises(HubError) as raised:
        fetch_model("meta/gated")
    assert raised.value.code == "gated"


def test_a_quantized_checkpoint_keeps_the_configurations_count(kits: dict[str, LocaleKit]) -> None:
    # An FP8 checkpoint as DeepSeek-V3 stores one: F8_E4M3 weights and an F32 scale per 128 × 128 block. Its numbers
    # are not its weights, so the configuration's count stays and the page says how much the tensors take.
    header = json.dumps(
        {
            "w": {"dtype": "F8_E4M3", "shape": [4096, 4096], "data_offsets": [0, 16_777_216]},
            "w_scale_inv": {"dtype": "F32", "shape": [32, 32], "data_offsets": [16_777_216, 16_781_312]},
        }
    )
    config = json.dumps({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
                         "intermediate_size": 128, "vocab_size": 1000})  # fmt: skip
    plain, quantized = read_config(VRAM, config, kits["en"]), read_checkpoint(VRAM, config, [header], kits["en"])
    assert quantized.values == plain.values
    assert quantized.message == (
        f"{plain.message} Its safetensors files hold packed or quantized tensors, 0.02 GB as stored, so the "
        "parameters were counted from the configuration."
    )


def test_a_quantized_checkpoint_gives_the_bits_its_files_take(kits: dict[str, LocaleKit]) -> None:
    # An FP8 checkpoint of the configuration's own size: each weight one byte plus an F32 scale per 16,384 weights.
    # The page takes the bits per weight the files store, so that its weights take exactly what the files hold.
    config = json.dumps({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
                         "intermediate_size": 128, "vocab_size": 1000})  # fmt: skip
    weights = round(read_model_config(config).facts["model.params_billion"] * 1e9)
    scales = -(-weights // 16_384)
    header = json.dumps(
        {
            "w": {"dtype": "F8_E4M3", "shape": [weights], "data_offsets": [0, weights]},
            "w_scale_inv": {"dtype": "F32", "shape": [scales], "data_offsets": [weights, weights + 4 * scales]},
        }
    )
    outcome = read_checkpoint(VRAM, config, [header], kits["en"])
    stored = weights + 4 * scales
    # Per weight of the count in the field (written to 4 significant digits, as a model card writes it).
    field = float(outcome.values["params_billion"]) * 1e9
    assert float(outcome.values["bits_per_weight"]) == pytest.approx(8 * stored / field, abs=1e-4)
    page = results(VRAM, **outcome.values, context_tokens="0", memory_unit="gb")
    assert page["weights_memory"] * 1e9 == pytest.approx(stored, rel=1e-5)
    bits = format_number(float(outcome.values["bits_per_weight"]), kits["en"].numbers, 2)
    assert f": {bits} bits per weight on average, which this page takes for the weights." in outcome.message
