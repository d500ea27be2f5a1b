"""What a checkpoint's safetensors headers say: every tensor's dtype and shape, so its exact numbers and bytes.

A safetensors file starts with 8 bytes, the length N of a JSON header (little-endian), then the header: for each
tensor its "dtype", "shape" and "data_offsets" [begin, end) into the data that follows, and an optional
"__metadata__" of strings (https://huggingface.co/docs/safetensors/index#format). Reading the first 8 + N bytes
of each file tells a model's size without downloading it, as `hf-mem` and huggingface_hub's
`get_safetensors_metadata` do; a sharded checkpoint names its files in model.safetensors.index.json. The edges
(the page's script, the command line) fetch those bytes; this module only reads the header's text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["FLOAT_DTYPES", "LARGEST_HEADER", "Tensors", "combine", "read_header", "shard_files"]

LARGEST_HEADER = 100_000_000
"""Bytes: the safetensors library refuses a longer header (MAX_HEADER_SIZE, 100 MB)."""
FLOAT_DTYPES = frozenset({"F64", "F32", "F16", "BF16"})
"""Dtypes a checkpoint of plain weights stores, every number one weight. A quantized checkpoint has others: packed
integers (GPTQ's I32, bitsandbytes' U8), FP8 weights beside their scale tensors, which a count of numbers would
take for weights."""
_BYTES: Mapping[str, float] = MappingProxyType(
    {
        # safetensors' Dtype enum (safetensors/src/tensor.rs): bytes per number; F4 packs two numbers per byte.
        "BOOL": 1,
        "U8": 1,
        "I8": 1,
        "F8_E5M2": 1,
        "F8_E4M3": 1,
        "F8_E8M0": 1,
        "F4": 0.5,
        "F6_E2M3": 0.75,
        "F6_E3M2": 0.75,
        "I16": 2,
        "U16": 2,
        "F16": 2,
        "BF16": 2,
        "I32": 4,
        "U32": 4,
        "F32": 4,
        "F64": 8,
        "I64": 8,
        "U64": 8,
    }
)


@dataclass(frozen=True)
class Tensors:
    """The tensors of one or more safetensors headers, or the problem that kept them from being read.

    Problem codes: not_json, not_safetensors (a header that is not a map of tensors with known dtypes, shapes and
    offsets that agree), too_big (longer than safetensors allows).
    """

    numbers: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Numbers stored, by dtype."""
    stored_bytes: int = 0
    """The tensors' bytes: what the weights take in memory when loaded as stored."""
    count: int = 0
    """How many tensors."""
    problem: str = ""

    @property
    def parameters(self) -> int:
        """The weights, when every tensor holds one weight per number (no packed or quantized tensors)."""
        return sum(self.numbers.values())

    @property
    def unpacked(self) -> bool:
        """Whether every tensor stores plain floating-point weights, so `parameters` is the model's count."""
        return bool(self.numbers) and set(self.numbers) <= FLOAT_DTYPES


def read_header(text: str) -> Tensors:
    """Read one safetensors header (the JSON after the 8-byte length).

    >>> header = json.dumps({"__metadata__": {"format": "pt"},
    ...     "lm_head.weight": {"dtype": "BF16", "shape": [32000, 4096], "data_offsets": [0, 262144000]},
    ...     "norm.weight": {"dtype": "F32", "shape": [4096], "data_offsets": [262144000, 262160384]}})
    >>> tensors = read_header(header)
    >>> dict(tensors.numbers), tensors.stored_bytes, tensors.parameters, tensors.unpacked
    ({'BF16': 131072000, 'F32': 4096}, 262160384, 131076096, True)
    >>> read_header('{"x": {"dtype": "BF16", "shape": [2, 2], "data_offsets": [0, 7]}}').problem
    'not_safetensors'
    """
    if len(text) > LARGEST_HEADER:
        return Tensors(problem="too_big")
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return Tensors(problem="not_json")
    if not isinstance(document, dict):
        return Tensors(problem="not_safetensors")
    numbers: dict[str, int] = {}
    stored = 0
    for name, tensor in document.items():
        if name == "__metadata__":
            continue
        size = _size(tensor)
        if size is None:
            return Tensors(problem="not_safetensors")
        dtype, count, length = size
        numbers[dtype] = numbers.get(dtype, 0) + count
        stored += length
    return Tensors(
        numbers=MappingProxyType(numbers), stored_bytes=stored, count=len(document) - ("__metadata__" in document)
    )


def _size(tensor: object) -> tuple[str, int, int] | None:
    """A tensor's dtype, numbers and bytes, if its entry is well formed and its offsets span exactly its numbers."""
    if not isinstance(tensor, dict):
        return None
    dtype, shape, offsets = tensor.get("dtype"), tensor.get("shape"), tensor.get("data_offsets")
    if not (
        isinstance(dtype, str)
        and dtype in _BYTES
        and isinstance(shape, list)
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)
        and isinstance(offsets, list)
        and len(offsets) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in offsets)
    ):
        return None
    count = math.prod(shape)
    length = offsets[1] - offsets[0]
    return (dtype, count, length) if length == math.ceil(count * _BYTES[dtype]) else None


def combine(parts: Iterable[Tensors]) -> Tensors:
    """The tensors of a sharded checkpoint: every shard's header together (a problem in any is the whole's)."""
    numbers: dict[str, int] = {}
    stored = count = 0
    for part in parts:
        if part.problem:
            return part
        for dtype, amount in part.numbers.items():
            numbers[dtype] = numbers.get(dtype, 0) + amount
        stored += part.stored_bytes
        count += part.count
    return Tensors(numbers=MappingProxyType(numbers), stored_bytes=stored, count=count)


def shard_files(index_text: str) -> tuple[str, ...]:
    """The shard files model.safetensors.index.json names (its weight_map's values), each once, in order; () when
    the text is not such an index.

    >>> shard_files('{"metadata": {"total_size": 16060522496}, "weight_map": {"a": "model-00001-of-00002.safetensors",'
    ...             ' "b": "model-00002-of-00002.safetensors", "c": "model-00001-of-00002.safetensors"}}')
    ('model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors')
    """
    try:
        document = json.loads(index_text)
    except (json.JSONDecodeError, RecursionError):
        return ()
    weight_map = document.get("weight_map") if isinstance(document, dict) else None
    if not isinstance(weight_map, dict):
        return ()
    files = [name for name in weight_map.values() if isinstance(name, str) and name.endswith(".safetensors")]
    return tuple(dict.fromkeys(sorted(files)))
