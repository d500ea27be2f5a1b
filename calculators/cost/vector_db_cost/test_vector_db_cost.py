"""Vector database cost: Pinecone's published read units per namespace size and its monthly minimum, and nodes."""

from __future__ import annotations

from decimal import Decimal

import pytest

from calculators import Problem, evaluate
from calculators.cost.vector_db_cost import CALCULATOR as COST
from tests.helpers import results_of

_result = results_of(COST)


@pytest.mark.parametrize(
    ("records", "dimensions", "metadata", "gb"),
    [
        # Pinecone, Understanding cost, the query table: records, dense dimension, metadata, namespace size = RUs.
        ("500000", "768", "500", 1.78),
        ("1000000", "1536", "1000", 7.14),
        ("5000000", "1024", "15000", 95.5),
        ("10000000", "1536", "1000", 71.4),
    ],
)
def test_a_query_uses_one_read_unit_per_gb_of_namespace(
    records: str, dimensions: str, metadata: str, gb: float
) -> None:
    result = _result(records=records, dimensions=dimensions, metadata_bytes=metadata)
    assert result["namespace_gb"] == pytest.approx(gb, rel=5e-3)  # printed to three significant digits
    assert result["read_units_per_query"] == pytest.approx(result["namespace_gb"])


def test_a_small_namespace_still_uses_a_quarter_unit() -> None:
    # "with a minimum of 0.25 RUs per query"
    assert _result(records="1000")["read_units_per_query"] == 0.25


@pytest.mark.parametrize(("usage", "bill"), [(20, 50), (100, 100)])
def test_the_plan_bills_at_least_its_monthly_minimum(usage: float, bill: float) -> None:
    # Pinecone's examples on the Standard plan: usage of $20 is billed $50; usage of $100 is billed $100.
    # Storage alone makes the usage here: records sized to `usage` GB at 1 per GB-month, no traffic.
    result = _result(
        records=str(usage * 1e9 / 4000),
        dimensions="1000",
        metadata_bytes="0",
        storage_price="1",
        requests_per_day="0",
        writes_per_day="0",
    )
    assert result["usage_cost"] == pytest.approx(usage)
    assert result["monthly_cost"] == pytest.approx(bill)


def test_reads_and_writes_follow_the_month() -> None:
    result = _result(requests_per_day="10000", writes_per_day="1000", monthly_minimum="0")
    queries = 10000 * 730 / 24
    assert result["read_cost"] == pytest.approx(queries * 7.144 * 16 / 1e6)
    assert result["write_cost"] == pytest.approx(1000 * 730 / 24 * 8 * 4 / 1e6)
    thirty = _result(requests_per_day="10000", month_hours="720", monthly_minimum="0")
    assert thirty["read_cost"] == pytest.approx(10000 * 30 * 7.144 * 16 / 1e6)


def test_provisioned_nodes_bill_by_the_hour() -> None:
    result = _result(billing="provisioned", nodes="4", node_price="0.5")
    assert result["monthly_cost"] == pytest.approx(4 * 0.5 * 730)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("records", "-5", Problem("records", "too_small", Decimal(0))),
        ("storage_price", "x", Problem("storage_price", "not_a_number")),
        ("billing", "free", Problem("billing", "unknown_choice")),
    ],
)
def test_bad_inputs_are_problems(name: str, raw: str, problem: Problem) -> None:
    assert evaluate(COST, {**COST.defaults(), name: raw}).problems == (problem,)
