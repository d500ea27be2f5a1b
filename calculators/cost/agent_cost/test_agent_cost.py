"""Agent cost: the closed forms against an explicit step-by-step simulation of the loop, in every caching convention.

No vendor prints the cost of a whole agent run, so the closed forms are held to an independent check: the loop
simulated here message by message (each request sends everything before it; with caching, what the previous
request sent is a cache hit). The formula sheet's case (C §12, an illustration) is the worked example.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import LocaleKit, Problem, evaluate, make_report
from calculators.cost.agent_cost import CALCULATOR as AGENT
from tests.helpers import results_of

_result = results_of(AGENT)


# Anthropic's pricing page, Claude Sonnet 4.5 row: $3 / MTok input, $3.75 five-minute cache writes, $0.30 cache
# hits, $15 output (https://platform.claude.com/docs/en/about-claude/pricing, read 2026-12-02).
SONNET = {"input_price": "3", "cache_write_price": "3.75", "cached_input_price": "0.3", "output_price": "15"}


def _simulate(base: int, output: int, tool: int, steps: int, caching: str, prices: dict[str, str]) -> float:
    """Run the loop message by message: what each request sends, what the cache already holds, what it costs."""
    p_in, p_write, p_hit, p_out = (float(prices[k]) for k in ("input_price", "cache_write_price",
                                                              "cached_input_price", "output_price"))  # fmt: skip
    messages = [base]  # the context as a list of blocks, in tokens
    cached = 0  # what the previous request sent, now a prefix in the cache
    total = 0.0
    for _ in range(steps):
        sent = sum(messages)
        hit = cached if caching != "none" else 0
        new = sent - hit
        new_price = {"none": p_in, "automatic": p_in, "explicit": p_write}[caching]
        total += (new * new_price + hit * p_hit + output * p_out) / 1e6
        cached = sent
        messages += [output, tool]  # the model's tool call, then the tool's result
    return total


def test_the_formula_sheets_run() -> None:
    # C §12: B = 2,000, Δ = 500 (200 out + 300 tool result), 10 steps: 42,500 in, 2,000 out, at 3 / 15 → 0.1575.
    result = _result(input_price="3", output_price="15")
    assert result["total_input_tokens"] == 42500
    assert result["total_output_tokens"] == 2000
    assert result["total_cost"] == pytest.approx(0.1575)
    assert result["last_step_tokens"] == 6500


@pytest.mark.parametrize("caching", ["none", "automatic", "explicit"])
@pytest.mark.parametrize(
    ("base", "output", "tool", "steps"), [(2000, 200, 300, 10), (0, 1, 0, 1), (15000, 800, 4000, 57)]
)
def test_closed_forms_match_the_simulated_loop(base: int, output: int, tool: int, steps: int, caching: str) -> None:
    values = {"base_tokens": str(base), "output_tokens": str(output), "tool_result_tokens": str(tool),
              "steps": str(steps), "caching": caching, **SONNET}  # fmt: skip
    result = _result(**values)
    assert result["total_cost"] == pytest.approx(_simulate(base, output, tool, steps, caching, SONNET))
    doubled = _simulate(base, output, tool, 2 * steps, caching, SONNET)
    assert result["doubled_cost"] == pytest.approx(doubled)


def test_caching_turns_the_history_into_cache_hits() -> None:
    # Every step but the first reads the previous step's whole input from the cache: 9 steps' inputs, 36,000 tokens.
    automatic = _result(caching="automatic", **SONNET)
    assert automatic["cached_tokens"] == 2000 * 9 + 500 * 36
    explicit = _result(caching="explicit", **SONNET)
    none = _result(caching="none", **SONNET)
    assert automatic["total_cost"] < explicit["total_cost"] < none["total_cost"]


def test_the_cost_grows_with_the_square_of_the_steps() -> None:
    # With no starting context or output a run costs Δ n (n - 1) / 2: 200 steps cost (200·199)/(100·99) times 100.
    result = _result(base_tokens="0", output_tokens="0", tool_result_tokens="1000", steps="100")
    assert result["doubled_ratio"] == pytest.approx(200 * 199 / (100 * 99))


def test_the_chart_shows_each_step(kits: dict[str, LocaleKit]) -> None:
    report = make_report(AGENT, {**AGENT.defaults(), "input_price": "3", "output_price": "15"}, kits["en"])
    chart = report.chart
    assert chart.startswith('<figcaption class="step-chart-title" id="step-chart-title">Cost of each step: USD')
    assert chart.count('<rect class="chart-part-0"') == 10  # a bar per step
    # Step 10 sends 6,500 tokens: 0.0195 + 0.003; the run so far costs 0.1575.
    assert '<th scope="row">10</th><td>6,500</td><td>USD\xa00.0225</td><td>USD\xa00.1575</td>' in chart
    invalid = make_report(AGENT, {**AGENT.defaults(), "steps": "0"}, kits["en"])
    assert invalid.chart == ""


def test_a_long_run_draws_at_most_forty_bars(kits: dict[str, LocaleKit]) -> None:
    chart = make_report(AGENT, {**AGENT.defaults(), "steps": "10000"}, kits["en"]).chart
    assert chart.count('<rect class="chart-part-0"') == 40
    assert chart.count('<th scope="row">') == 6


def test_the_arabic_table_isolates_its_figures(kits: dict[str, LocaleKit]) -> None:
    chart = make_report(AGENT, AGENT.defaults(), kits["ar"]).chart
    assert "\u2066" in chart and 'dir="' not in chart  # the table follows the page; its figures are isolated runs


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("steps", "0", Problem("steps", "too_small", Decimal(1))),
        ("steps", "2.5", Problem("steps", "not_whole")),
        ("caching", "sometimes", Problem("caching", "unknown_choice")),
        ("cache_write_price", "-1", Problem("cache_write_price", "too_small", Decimal(0))),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(AGENT, {**AGENT.defaults(), name: raw}).problems == (problem,)


def test_web_searches_bill_per_thousand_besides_the_tokens() -> None:
    # Anthropic's pricing page: web search at $10 per 1,000 searches, plus the tokens its results add.
    run = evaluate(AGENT, {**AGENT.defaults(), "web_searches": "25", "web_search_price": "10"})
    none = evaluate(AGENT, AGENT.defaults())
    assert run.results["search_cost"] == pytest.approx(0.25)
    assert run.results["total_cost"] == pytest.approx(none.results["total_cost"] + 0.25)
    # A run twice as long searches twice as often.
    assert run.results["doubled_cost"] == pytest.approx(none.results["doubled_cost"] + 0.5)
