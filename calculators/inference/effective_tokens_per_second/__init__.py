"""Effective tokens per second: the speed a user sees, the wait for the first token included.

Databricks' "LLM Inference Performance Engineering: Best Practices"
(https://www.databricks.com/blog/llm-inference-performance-engineering-best-practices) defines time to first
token (TTFT), time per output token (TPOT) and latency = TTFT + TPOT × (tokens generated); NVIDIA's NIM
benchmarking guide (https://docs.nvidia.com/nim/benchmarking/llm/latest/metrics.html) and vLLM count the
intervals after the first token, n - 1. With a network round trip r on top:

    T = r + TTFT + k × TPOT,   k = n or n - 1,      effective rate = n / T,      decode rate = 1 / TPOT

Databricks' example: a TPOT of 100 ms is 10 tokens per second per user, about 450 words per minute.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, Rule, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

_TIMES = N_("Timings")

OUTPUT_TOKENS = replace(cost.OUTPUT_TOKENS, group=cost.USAGE, default="200")
TTFT = InputSpec(
    name="ttft_ms",
    kind=Kind.DECIMAL,
    group=_TIMES,
    label=N_("Time to first token (TTFT)"),
    help=N_(
        "From sending the request to receiving the first token: queueing, reading the prompt (prefill) and the "
        "first decoding step, as a benchmark or your API's logs report it.",
    ),
    default="500",
    unit=N_("ms"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=3,
)
TPOT = InputSpec(
    name="tpot_ms",
    kind=Kind.DECIMAL,
    group=_TIMES,
    label=N_("Time per output token (TPOT)"),
    help=N_(
        "The time between two streamed tokens once the answer has started, also called inter-token latency (ITL).",
    ),
    default="20",
    unit=N_("ms"),
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(10000000),
    fraction_digits=3,
)
NETWORK = InputSpec(
    name="network_ms",
    kind=Kind.DECIMAL,
    group=_TIMES,
    label=N_("Network overhead"),
    help=N_(
        "Time the user's connection adds once per request, when TTFT was measured next to the server; 0 when it "
        "was measured where the user sits.",
    ),
    default="0",
    unit=N_("ms"),
    minimum=Decimal(0),
    maximum=Decimal(100000000),
    fraction_digits=3,
)
INTERVALS = InputSpec(
    name="intervals",
    kind=Kind.CHOICE,
    group=_TIMES,
    label=N_("Intervals counted"),
    help=N_(
        "Databricks adds one TPOT per generated token; NVIDIA's and vLLM's benchmarks count the n - 1 intervals "
        "after the first token, which TTFT already covers. Use the convention your TPOT was measured with.",
    ),
    default="n",
    choices=(
        Choice("n", N_("TTFT + n × TPOT (Databricks)"), number="0"),
        Choice("n-1", N_("TTFT + (n − 1) × TPOT (NVIDIA, vLLM)"), number="1"),  # noqa: RUF001
    ),
    fraction_digits=0,
)
WORDS_PER_TOKEN = InputSpec(
    name="words_per_token",
    kind=Kind.DECIMAL,
    group=_TIMES,
    label=N_("Words per token"),
    help=N_(
        "For the reading speed: about 0.75 for English text (Databricks' 10 tokens per second are about 450 words "
        "a minute); fewer for code and most other languages.",
    ),
    default="0.75",
    minimum=Decimal(0),
    minimum_exclusive=True,
    maximum=Decimal(100),
    fraction_digits=3,
    advanced=True,
)


def total_seconds(values: Mapping[str, float]) -> float:
    """Return the time from sending the request to the last token, in seconds."""
    tokens = values["output_tokens"]
    intervals = max(tokens - 1, 0) if values["intervals"] else tokens
    return (values["network_ms"] + values["ttft_ms"] + intervals * values["tpot_ms"]) / 1000


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the end-to-end time, the effective and decode rates, and the share of the wait before the first token.

    200 tokens after a 0.5 s TTFT at 20 ms per token take 4.5 s: 44.44 tokens per second against a decode rate of 50.

    >>> values = {"output_tokens": 200, "ttft_ms": 500, "tpot_ms": 20, "network_ms": 0, "intervals": 0}
    >>> result = compute({**values, "words_per_token": 0.75})
    >>> result["total_seconds"], round(result["effective_tps"], 2), result["decode_tps"]
    (4.5, 44.44, 50.0)
    """
    seconds = total_seconds(values)
    effective = values["output_tokens"] / seconds
    decode = 1000 / values["tpot_ms"]
    return {
        "total_seconds": seconds,
        "effective_tps": effective,
        "decode_tps": decode,
        "effective_share": 100 * effective / decode,
        "wait_share": 100 * (values["network_ms"] + values["ttft_ms"]) / 1000 / seconds,
        "words_per_minute": decode * 60 * values["words_per_token"],
    }


CALCULATOR = Calculator(
    title=N_("Effective tokens per second"),
    summary=N_(
        "The speed a user sees from request to last token, the time to first token included, against the decode "
        "rate a benchmark quotes.",
    ),
    inputs=(OUTPUT_TOKENS, TTFT, TPOT, NETWORK, INTERVALS, WORDS_PER_TOKEN),
    outputs=(
        OutputSpec(
            name="effective_tps",
            label=N_("Effective speed"),
            unit=N_("tokens/s"),
            # Translators: {output_tokens} is a number of tokens, {total_seconds} a time in seconds,
            # {effective_tps} a rate in tokens per second.
            sentence=N_(
                "The user receives {output_tokens} tokens in {total_seconds} s: {effective_tps} tokens per second "
                "from request to last token.",
            ),
        ),
        OutputSpec(
            name="decode_tps",
            label=N_("Decode speed"),
            unit=N_("tokens/s"),
            # Translators: {decode_tps} is a rate in tokens per second; {effective_share} a percentage (the % sign
            # follows it); {words_per_minute} a number of words.
            sentence=N_(
                "Once the answer streams, tokens arrive at {decode_tps} per second, about {words_per_minute} words a "
                "minute. Measured against that rate, the effective speed comes to {effective_share}%.",
            ),
        ),
        OutputSpec(
            name="wait_share",
            label=N_("Share spent waiting for the first token"),
            unit=N_("%"),
            # Translators: {wait_share} is a percentage (the % sign follows it).
            sentence=N_(
                "Share of the total time spent before the first token arrives: {wait_share}%.",
            ),
            fraction_digits=1,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"T = r + T_{\text{first}} + k \cdot T_{\text{token}}",
        r"R_{\text{eff}} = \frac{n}{T}, \quad R_{\text{decode}} = \frac{1}{T_{\text{token}}}",
    ),
    related=("speculative-decoding", "image-tokens", "llm-inference-vram", "kv-cache-size", "token-cost"),
    rules=(
        Rule(
            "output_tokens",
            lambda values: values["output_tokens"] >= 1,
            N_("Enter at least 1 output token: a speed needs tokens."),
        ),
        Rule(
            "ttft_ms",
            lambda values: total_seconds(values) > 0,
            N_("Enter a time above 0: one token alone arrives after TTFT."),
        ),
    ),
)
