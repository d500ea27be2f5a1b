"""Vector database cost per month: usage-based, as Pinecone's serverless indexes meter it, or provisioned nodes.

Usage-based (Pinecone, "Understanding cost", https://docs.pinecone.io/guides/manage-cost/understanding-cost):
storage is billed per GB-month of namespace size; "a query uses 1 RU for every 1 GB of namespace size, with a
minimum of 0.25 RUs per query"; writes use write units, which every response reports; and a paid plan's bill is
at least its monthly minimum ("Your usage for the month of August amounts to $20 … your total for the month is
$50"). A record's size is its float32 vector plus its metadata (Pinecone's table: 1536 dimensions and 1,000 bytes
of metadata are 7.14 KB a record).

Provisioned (dedicated nodes, pods, or a self-managed database): nodes × price per node-hour × hours per month.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from calculators.kernel.spec import Calculator, Choice, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost, units

N_, NP_ = messages_of(__name__)

_INDEX = N_("Index")
_TRAFFIC = N_("Traffic")
_NODES = N_("Provisioned nodes")

_USAGE, _PROVISIONED = 0, 1
_MINIMUM_READ_UNITS = 0.25  # per query, whatever the namespace's size
_FLOAT32 = 4


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the monthly cost and its parts.

    Pinecone's table: a million records of 1,536 dimensions with 1,000 bytes of metadata are 7.144 GB, so each
    query uses 7.144 read units:

    >>> base = {"records": 1e6, "dimensions": 1536, "metadata_bytes": 1000, "storage_price": 0.33,
    ...         "requests_per_day": 0, "read_price": 16, "writes_per_day": 0, "write_units": 8,
    ...         "write_price": 4, "monthly_minimum": 50, "nodes": 1, "node_price": 1, "month_hours": 730}
    >>> round(compute({**base, "billing": 0})["read_units_per_query"], 3)
    7.144
    >>> round(compute({**base, "billing": 0, "monthly_minimum": 0})["monthly_cost"], 4)  # 7.144 GB × 0.33
    2.3575
    """
    days = cost.days_per_month(values)
    size_gb = values["records"] * (values["dimensions"] * _FLOAT32 + values["metadata_bytes"]) / 1e9
    read_units = max(_MINIMUM_READ_UNITS, size_gb)
    storage = size_gb * values["storage_price"]
    reads = cost.per_million(values["requests_per_day"] * days * read_units, values["read_price"])
    writes = cost.per_million(values["writes_per_day"] * days * values["write_units"], values["write_price"])
    usage = storage + reads + writes
    nodes = values["nodes"] * values["node_price"] * values["month_hours"]
    monthly = max(usage, values["monthly_minimum"]) if int(values["billing"]) == _USAGE else nodes
    return {
        "monthly_cost": monthly,
        "usage_cost": usage,
        "storage_cost": storage,
        "read_cost": reads,
        "write_cost": writes,
        "node_cost": nodes,
        "namespace_gb": size_gb,
        "read_units_per_query": read_units,
    }


CALCULATOR = Calculator(
    title=N_("Vector database cost"),
    summary=N_(
        "Estimate a vector database's monthly bill: storage, read units and write units as Pinecone's serverless "
        "indexes meter them, with the plan's minimum, or provisioned nodes by the hour.",
    ),
    inputs=(
        InputSpec(
            name="billing",
            kind=Kind.CHOICE,
            group=_INDEX,
            label=N_("Billed by"),
            help=N_(
                "Usage: storage, reads and writes metered as Pinecone's serverless indexes meter them. "
                "Provisioned: a fixed number of nodes (pods, dedicated nodes, or your own servers) paid by the hour.",
            ),
            default="usage",
            choices=(
                Choice("usage", N_("Usage (storage, read and write units)"), number="0"),
                Choice("provisioned", N_("Provisioned nodes by the hour"), number="1"),
            ),
            fraction_digits=0,
        ),
        InputSpec(
            name="records",
            kind=Kind.DECIMAL,
            group=_INDEX,
            label=N_("Records"),
            help=N_("How many vectors the index holds, one per chunk of every document."),
            default="1000000",
            unit=N_("records"),
            minimum=Decimal(0),
            maximum=Decimal("1e12"),
            fraction_digits=0,
        ),
        InputSpec(
            name="dimensions",
            kind=Kind.INTEGER,
            group=_INDEX,
            label=N_("Dimensions"),
            help=N_("The length of each embedding, stored as float32: 4 bytes a dimension."),
            default="1536",
            minimum=Decimal(1),
            maximum=Decimal(100000),
            fraction_digits=0,
        ),
        InputSpec(
            name="metadata_bytes",
            kind=Kind.DECIMAL,
            group=_INDEX,
            label=N_("Metadata per record"),
            help=N_("Bytes stored with each vector: its id, text and filter fields."),
            default="1000",
            unit=units.BYTES,
            minimum=Decimal(0),
            maximum=Decimal(100000000),
            fraction_digits=0,
        ),
        replace(
            cost.REQUESTS_PER_DAY,
            group=_TRAFFIC,
            label=N_("Queries per day"),
            help=N_("Similarity searches sent on an average day."),
            unit=N_("queries"),
        ),
        InputSpec(
            name="writes_per_day",
            kind=Kind.DECIMAL,
            group=_TRAFFIC,
            label=N_("Writes per day"),
            help=N_("Upserts, updates and deletes sent on an average day."),
            default="1000",
            unit=N_("writes"),
            minimum=Decimal(0),
            maximum=Decimal("1e12"),
            fraction_digits=2,
        ),
        InputSpec(
            name="write_units",
            kind=Kind.DECIMAL,
            group=_TRAFFIC,
            label=N_("Write units per write"),
            help=N_(
                "The write units one write uses on average: every write response reports them. Larger records "
                "and batches use more.",
            ),
            default="8",
            unit=N_("units"),
            minimum=Decimal(0),
            maximum=Decimal(1000000),
            fraction_digits=2,
            advanced=True,
        ),
        cost.price_input(
            "storage_price",
            N_("Storage price"),
            N_("What a GB of index costs for a month."),
            "0.33",
            preset=None,
            unit=N_("per GB-month"),
        ),
        cost.price_input(
            "read_price",
            N_("Read price"),
            N_("What a million read units cost."),
            "16",
            preset=None,
            unit=N_("per million read units"),
        ),
        cost.price_input(
            "write_price",
            N_("Write price"),
            N_("What a million write units cost."),
            "4",
            preset=None,
            unit=N_("per million write units"),
        ),
        cost.price_input(
            "monthly_minimum",
            N_("Monthly minimum"),
            N_(
                "The least a paid plan bills in a month, whatever the usage: 50 on Pinecone's Standard plan, "
                "500 on Enterprise, 0 on the free Starter plan.",
            ),
            "50",
            preset=None,
            unit=N_("per month"),
        ),
        InputSpec(
            name="nodes",
            kind=Kind.INTEGER,
            group=_NODES,
            label=N_("Nodes"),
            help=N_(
                "For provisioned billing: how many nodes, pods or servers run the index, replicas included.",
            ),
            default="2",
            minimum=Decimal(0),
            maximum=Decimal(100000),
            fraction_digits=0,
            advanced=True,
        ),
        replace(
            cost.price_input(
                "node_price",
                N_("Price per node-hour"),
                N_("For provisioned billing: what one node costs for an hour."),
                "0.5",
                preset=None,
                unit=N_("per hour"),
            ),
            group=_NODES,
            advanced=True,
        ),
        cost.CURRENCY,
        cost.MONTH_LENGTH,
    ),
    outputs=(
        OutputSpec(
            name="monthly_cost",
            label=N_("Monthly cost"),
            # Translators: all fields are amounts of money with their currency code, except {month_hours_label}, the
            # month's length (730 hours or 30 days) and {billing_label}, how the index is billed.
            sentence=N_(
                "{billing_label}: {monthly_cost} a month of {month_hours_label}. Usage comes to {usage_cost} "
                "(storage {storage_cost}, reads {read_cost}, writes {write_cost}), against a monthly minimum of "
                "{monthly_minimum}; provisioned nodes would cost {node_cost}.",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="read_units_per_query",
            label=N_("Read units per query"),
            unit=N_("units"),
            # Translators: {read_units_per_query} and {namespace_gb} are formatted numbers; {records} a count.
            sentence=N_(
                "{records} records make a namespace of {namespace_gb} GB, so each query uses {read_units_per_query} "
                "read units: one per GB, at least 0.25.",
            ),
            fraction_digits=3,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"C = \max\bigl(S\,p_s + Q\,\max(0.25, S)\,p_r + W\,u\,p_w,\ C_{\min}\bigr)",
        r"C_{\mathrm{nodes}} = N \times p_{\mathrm{node}} \times h",
    ),
    money=("usage_cost", "storage_cost", "read_cost", "write_cost", "node_cost"),
    related=("vector-db-size", "embedding-cost"),
)
