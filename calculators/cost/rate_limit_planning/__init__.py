"""LLM rate-limit planning: the requests a minute an API's limits allow, the requests in flight, the users served.

A request counts against both limits: one request against requests per minute (RPM), and its tokens against tokens
per minute (TPM). OpenAI counts the tokens a request may use when it is sent, prompt plus max_tokens for each of
its n completions (the cookbook's api_request_parallel_processor.py, "completion_tokens = n * max_tokens"), so a
large max_tokens spends TPM even when the answer is short. The sustainable rate is the smaller of the two:

    R = min(RPM, TPM / (prompt + n × max_tokens))

Little's law (Little 1961; MathWorld, "Little's Law": 6,000 admissions a year staying 2 years make 12,000 students)
gives the requests in flight at once, L = λ × W: the rate per second times the mean latency.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost

N_, NP_ = messages_of(__name__)

_LIMITS = N_("Limits")
_REQUESTS = N_("Requests")
_SECONDS_PER_MINUTE = 60


def little(arrival_rate: float, time_in_system: float) -> float:
    """Return the mean number in the system, L = λ W (Little's law).

    MathWorld's example: 6,000 students admitted a year, each staying 2 years.

    >>> little(6000, 2)
    12000
    """
    return arrival_rate * time_in_system


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the rates each limit allows, the planned rate, the requests in flight and the users served.

    600 RPM and 2,000,000 TPM with 3,000 tokens a request: TPM allows 666.7 a minute, so RPM binds at 600; at
    8 seconds a request 80 are in flight, and at 2 requests a user a minute 300 users are served:

    >>> r = compute({"rpm_limit": 600, "tpm_limit": 2e6, "prompt_tokens": 2000, "max_tokens": 1000, "completions": 1,
    ...              "latency_seconds": 8, "user_requests_per_minute": 2, "headroom": 100})
    >>> round(r["tpm_requests"], 1), r["planned_rpm"], r["in_flight"], r["users"]
    (666.7, 600.0, 80.0, 300.0)
    """
    counted = values["prompt_tokens"] + values["completions"] * values["max_tokens"]
    tpm_requests = values["tpm_limit"] / counted if counted else values["rpm_limit"]
    planned = min(values["rpm_limit"], tpm_requests) * values["headroom"] / 100
    in_flight = little(planned / _SECONDS_PER_MINUTE, values["latency_seconds"])
    return {
        "counted_tokens": counted,
        "tpm_requests": tpm_requests,
        "planned_rpm": planned,
        "in_flight": in_flight,
        "users": planned / values["user_requests_per_minute"],
        "planned_tpm": planned * counted,
    }


CALCULATOR = Calculator(
    title=N_("LLM rate-limit planning"),
    summary=N_(
        "Find what an API's requests-per-minute and tokens-per-minute limits allow: the requests a minute you can "
        "sustain, how many are in flight at once, and how many users that serves.",
    ),
    inputs=(
        InputSpec(
            name="rpm_limit",
            kind=Kind.DECIMAL,
            group=_LIMITS,
            label=N_("Requests per minute (RPM)"),
            help=N_("Your account's request limit for the model, from the vendor's limits page."),
            default="600",
            unit=N_("requests"),
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal("1e9"),
            fraction_digits=2,
        ),
        InputSpec(
            name="tpm_limit",
            kind=Kind.DECIMAL,
            group=_LIMITS,
            label=N_("Tokens per minute (TPM)"),
            help=N_("Your account's token limit for the model: input and output tokens together."),
            default="2000000",
            unit=N_("tokens"),
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal("1e13"),
            fraction_digits=0,
        ),
        InputSpec(
            name="headroom",
            kind=Kind.DECIMAL,
            group=_LIMITS,
            label=N_("Plan at this share of the limit"),
            help=N_(
                "Limits are enforced over short windows, so bursts hit them before the average does: planning at "
                "70 to 80%, not 100, leaves room for them.",
            ),
            default="80",
            unit=N_("%"),
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100),
            fraction_digits=1,
        ),
        replace(
            cost.INPUT_TOKENS,
            name="prompt_tokens",
            group=_REQUESTS,
            label=N_("Prompt tokens per request"),
            default="2000",
        ),
        replace(
            cost.OUTPUT_TOKENS,
            name="max_tokens",
            group=_REQUESTS,
            label=N_("Output limit per request (max_tokens)"),
            help=N_(
                "The output limit the request sets. OpenAI counts it against TPM in full when the request arrives, "
                "however short the answer turns out.",
            ),
            default="1000",
        ),
        InputSpec(
            name="completions",
            kind=Kind.INTEGER,
            group=_REQUESTS,
            label=N_("Completions per request (n)"),
            help=N_("How many answers one request asks for; each counts its output limit again."),
            default="1",
            minimum=Decimal(1),
            maximum=Decimal(128),
            fraction_digits=0,
            advanced=True,
        ),
        InputSpec(
            name="latency_seconds",
            kind=Kind.DECIMAL,
            group=_REQUESTS,
            label=N_("Mean latency per request"),
            help=N_("Seconds from sending a request to its last token, on average."),
            default="8",
            unit=N_("seconds"),
            minimum=Decimal(0),
            maximum=Decimal(100000),
            fraction_digits=2,
        ),
        InputSpec(
            name="user_requests_per_minute",
            kind=Kind.DECIMAL,
            group=_REQUESTS,
            label=N_("Requests per active user per minute"),
            help=N_("How often one active user sends a request, at the busiest time of day."),
            default="2",
            unit=N_("requests"),
            minimum=Decimal(0),
            minimum_exclusive=True,
            maximum=Decimal(100000),
            fraction_digits=3,
        ),
    ),
    outputs=(
        OutputSpec(
            name="planned_rpm",
            label=N_("Requests per minute to plan for"),
            unit=N_("requests"),
            # Translators: every field is a formatted number; {headroom} a percentage (the % sign follows it).
            sentence=N_(
                "Each request counts {counted_tokens} tokens against TPM, so TPM allows {tpm_requests} requests a "
                "minute and RPM {rpm_limit}. Planning at {headroom}% (a share of the smaller) gives "
                "{planned_rpm} requests a minute, {planned_tpm} tokens.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="in_flight",
            label=N_("Requests in flight"),
            unit=N_("requests"),
            # Translators: every field is a formatted number.
            sentence=N_(
                "At {latency_seconds} seconds a request, about {in_flight} requests are in flight at once (Little's "
                "law): the concurrency your client and servers need.",
            ),
            fraction_digits=1,
        ),
        OutputSpec(
            name="users",
            label=N_("Active users served"),
            unit=N_("users"),
            # Translators: every field is a formatted number.
            sentence=N_(
                "At {user_requests_per_minute} requests a user a minute, that serves about {users} active users at "
                "once.",
            ),
            fraction_digits=0,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"R = \min\left(\mathrm{RPM},\ \frac{\mathrm{TPM}}{T_{\mathrm{prompt}} + n\,T_{\max}}\right)",
        r"L = \frac{R}{60} \times W",
    ),
    related=("token-cost",),
)
