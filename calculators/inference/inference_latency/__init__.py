"""Inference latency: time to first token, time per output token and the whole answer's latency.

Prefill reads the prompt in one compute-bound pass; each later token is a memory-bound decode step
(`vocabulary/roofline.py`). Databricks ("LLM Inference Performance Engineering: Best Practices", 2023) writes
latency = TTFT + TPOT × the tokens generated; vLLM's metrics count the first token in the TTFT, so the
decode steps that follow it are n - 1: latency = TTFT + TPOT × (n - 1), the form used here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, OutputSpec, messages_of
from calculators.vocabulary import inputs, roofline
from calculators.vocabulary.architecture import KV_HEADS_RULE

N_, NP_ = messages_of(__name__)

_WORKLOAD = inputs.WORKLOAD


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return TTFT and TPOT (ms), the answer's latency (s) and the tokens per second a request sees.

    Llama-3.1-8B in BF16 on an H100 SXM, a 1,000-token prompt and a 200-token answer, at the roofline:
    the prefill's 1.6 × 10¹³ FLOPs take 16.5 ms, and each token reads 16.2 GB in 4.8 ms:

    >>> llama = {"params_billion": 8.030261248, "bits_per_weight": 16, "active_params_billion": 8.030261248,
    ...          "layers": 32, "attention_heads": 32, "kv_heads": 8, "head_dim": 128, "bytes_per_element": 2,
    ...          "bandwidth_gb_s": 3350, "peak_tflops": 989.5, "gpus": 1, "efficiency": 100,
    ...          "prompt_tokens": 1000, "output_tokens": 200, "batch_size": 1}
    >>> result = compute(llama)
    >>> round(result["ttft_ms"], 1), round(result["tpot_ms"], 2), round(result["latency_s"], 3)
    (16.5, 4.84, 0.979)
    """
    batch, prompt, answer = values["batch_size"], values["prompt_tokens"], values["output_tokens"]
    first = roofline.prefill(values, batch, prompt)
    # The cache grows by one token a step; a memory-bound step's time is linear in it, so the average
    # context, prompt + answer ÷ 2, gives the mean step time.
    step = roofline.decode_step(values, batch, prompt + answer / 2)
    latency = first.time + step.time * (answer - 1)
    return {
        "ttft_ms": 1000 * first.time,
        "tpot_ms": 1000 * step.time,
        "latency_s": latency,
        "request_tokens_per_second": answer / latency,
        "batch_tokens_per_second": batch * answer / latency,
    }


CALCULATOR = Calculator(
    title=N_("Inference latency"),
    summary=N_(
        "Estimate the lower bound on an LLM's time to first token, time per output token and total latency "
        "for a prompt and an answer, from the model and the GPU's peak FLOP/s and memory bandwidth.",
    ),
    inputs=(
        *roofline.SERVING_MODEL_INPUTS,
        replace(
            inputs.CONTEXT_TOKENS,
            name="prompt_tokens",
            group=_WORKLOAD,
            label=N_("Prompt tokens"),
            help=N_("Tokens of the prompt each request sends, system prompt included."),
            default="1000",
        ),
        replace(
            inputs.CONTEXT_TOKENS,
            name="output_tokens",
            group=_WORKLOAD,
            label=N_("Output tokens"),
            help=N_("Tokens of the answer the model generates."),
            default="200",
            maximum=Decimal(10_000_000),
        ),
        replace(inputs.BATCH_SIZE, group=_WORKLOAD),
        *roofline.SERVING_GPU_INPUTS,
    ),
    outputs=(
        OutputSpec(
            name="latency_s",
            label=N_("Total latency"),
            unit=N_("s"),
            # Translators: {latency_s} is seconds, {output_tokens} a number of tokens.
            sentence=N_(
                "The whole answer of {output_tokens} tokens takes at least {latency_s} s: the time to the first "
                "token plus one time per output token for each token after it.",
            ),
            unknown=N_(
                "The answer waits first for the prompt's pass, which compute bounds, and the GPU's compute peak is "
                "not given.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="ttft_ms",
            label=N_("Time to first token"),
            unit=roofline.MILLISECONDS,
            # Translators: {ttft_ms} is milliseconds, {prompt_tokens} a number of tokens.
            sentence=N_(
                "Reading the {prompt_tokens}-token prompt is bound by compute and takes at least {ttft_ms} ms "
                "before the first token appears.",
            ),
            # Translators: {prompt_tokens} is a number of tokens.
            unknown=N_(
                "Reading the {prompt_tokens}-token prompt is bound by compute, and the GPU's compute peak is not "
                "given (its vendor may publish none): the time to the first token is not known.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="tpot_ms",
            label=N_("Time per output token"),
            unit=roofline.MILLISECONDS,
            # Translators: {tpot_ms} is milliseconds.
            sentence=N_(
                "Each following token is a decode step bound by memory bandwidth: at least {tpot_ms} ms, read at "
                "the answer's average context.",
            ),
            fraction_digits=3,
        ),
        OutputSpec(
            name="request_tokens_per_second",
            label=N_("Tokens per second per request"),
            unit=roofline.TOKENS_PER_SECOND,
            # Translators: {request_tokens_per_second} and {batch_tokens_per_second} are tokens per second.
            sentence=N_(
                "Counting the wait for the first token, a request sees at most {request_tokens_per_second} "
                "tokens/s, and the batch {batch_tokens_per_second} tokens/s.",
            ),
            unknown=N_(
                "It counts the wait for the first token, which needs the GPU's compute peak. Between tokens, the "
                "time per output token above holds.",
            ),
            fraction_digits=1,
        ),
    ),
    compute=compute,
    rules=(KV_HEADS_RULE,),
    updated="2026-12-02",
    formulas=(
        r"T = t_{prefill} + (n - 1) \cdot t_{token}",
        r"t_{prefill} = \max\left(\frac{b \cdot p \cdot (2N + 2 L p d_{attn})}{F},\ \frac{P \cdot Q / 8}{B}\right)",
    ),
    related=("inference-throughput", "batch-inference-throughput", "flops-per-token", "kv-cache-size"),
)
