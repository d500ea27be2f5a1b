"""Context cost growth: the closed forms against an explicit turn-by-turn simulation of the conversation.

No vendor prints the cost of a whole conversation; the closed forms are held to an independent check, the
conversation simulated here message by message (each request resends every earlier message; with caching,
what the previous request sent is a cache hit). The formula sheet's case (C §13, an illustration) is the
worked example.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.context_cost_growth import CALCULATOR as CHAT
from tests.helpers import results_of

_result = results_of(CHAT)


# Anthropic's pricing page, Claude Sonnet 4.5 row: $3 / MTok input, $3.75 five-minute cache writes, $0.30 cache
# hits, $15 output (https://platform.claude.com/docs/en/about-claude/pricing, read 2026-12-02).
SONNET = {"input_price": "3", "cache_write_price": "3.75", "cached_input_price": "0.3", "output_price": "15"}


# OpenAI's rule for its GPT-6 models: "For requests with more than 272K input tokens, input and cache rates double
# and output costs 1.5 times the short-context rate for the full request" (developers.openai.com, GPT-6.2 Sol).
TIER = {"long_context_input_price": "6", "long_context_cache_write_price": "7.5",
        "long_context_cached_input_price": "0.6", "long_context_output_price": "22.5"}  # fmt: skip


def _simulate(
    system: int, user: int, reply: int, turns: int, caching: str, threshold: int = 0
) -> tuple[int, int, float]:
    """Hold the conversation message by message; return the input tokens sent, the cache hits and the cost."""
    history = [system]
    previous = 0
    sent_all = hits_all = 0
    cost = 0.0
    for _ in range(turns):
        history.append(user)
        sent = sum(history)
        # A request above the threshold bills whole at the tier's prices (twice, and 1.5 times for output).
        long = threshold and sent > threshold
        p_in, p_write, p_hit, p_out = (6.0, 7.5, 0.6, 22.5) if long else (3.0, 3.75, 0.3, 15.0)
        hit = previous if caching != "none" else 0
        new_price = p_write if caching == "explicit" else p_in
        cost += ((sent - hit) * new_price + hit * p_hit + reply * p_out) / 1e6
        sent_all, hits_all, previous = sent_all + sent, hits_all + hit, sent
        history.append(reply)
    return sent_all, hits_all, cost


def test_the_formula_sheets_conversation() -> None:
    # C §13: S = 500, u = 100, a = 300, 10 turns: 24,000 input (6,000 if each turn were independent), 3,000 output.
    result = _result(**SONNET)
    assert result["total_input_tokens"] == 24000
    assert result["independent_tokens"] == 6000
    assert result["total_output_tokens"] == 3000
    assert result["history_share"] == pytest.approx(75)
    assert result["total_cost"] == pytest.approx(0.072 + 0.045)
    # One turn: 600 tokens in, nothing resent.
    assert _result(turns="1")["total_input_tokens"] == 600
    assert _result(turns="1")["history_share"] == 0


@pytest.mark.parametrize("caching", ["none", "automatic", "explicit"])
@pytest.mark.parametrize(
    ("system", "user", "reply", "turns"), [(500, 100, 300, 10), (0, 1, 0, 1), (8000, 250, 900, 73)]
)
def test_closed_forms_match_the_simulated_conversation(
    system: int, user: int, reply: int, turns: int, caching: str
) -> None:
    values = {"system_tokens": str(system), "user_tokens": str(user), "output_tokens": str(reply),
              "turns": str(turns), "caching": caching, **SONNET}  # fmt: skip
    result = _result(**values)
    sent, hits, cost = _simulate(system, user, reply, turns, caching)
    assert result["total_input_tokens"] == sent
    assert result["cached_tokens"] == hits
    assert result["total_cost"] == pytest.approx(cost)
    assert result["doubled_cost"] == pytest.approx(_simulate(system, user, reply, 2 * turns, caching)[2])


@pytest.mark.parametrize("caching", ["none", "automatic", "explicit"])
@pytest.mark.parametrize("threshold", [3000, 600, 599, 25_000])
def test_turns_past_the_long_context_threshold_bill_at_its_prices(caching: str, threshold: int) -> None:
    # S = 500, u = 100, a = 300: turn i sends 600 + 400 (i - 1) tokens. Above 3,000 (turns 8 to 10), at most 600
    # (turn 1 only below), below the first turn (all above) and above the last (none): each turn as the rule bills it.
    values = {"caching": caching, "long_context_above": str(threshold), **SONNET, **TIER}
    result = _result(**values)
    assert result["total_cost"] == pytest.approx(_simulate(500, 100, 300, 10, caching, threshold)[2])
    assert result["doubled_cost"] == pytest.approx(_simulate(500, 100, 300, 20, caching, threshold)[2])
    if threshold == 25_000:
        assert result["total_cost"] == pytest.approx(_simulate(500, 100, 300, 10, caching)[2])


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("turns", "0", Problem("turns", "too_small", Decimal(1))),
        ("turns", "2.5", Problem("turns", "not_whole")),
        ("input_price", "-3", Problem("input_price", "too_small", Decimal(0))),
        ("caching", "x", Problem("caching", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(CHAT, {**CHAT.defaults(), name: raw}).problems == (problem,)
