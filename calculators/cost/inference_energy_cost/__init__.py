"""Inference energy cost: the electricity a serving fleet draws, what it costs and what it emits.

Patterson et al. 2021, "Carbon Emissions and Large Neural Network Training" (https://arxiv.org/abs/2104.10350),
compute energy as hours × processors × average power per processor × PUE, and emissions as energy × the grid's
carbon intensity. The PaLM paper (Chowdhery et al. 2022, https://arxiv.org/abs/2204.02311, appendix B) applies it:
8,404,992 TPU v4 chip-hours at 378.5 W, PUE 1.08 and 0.079 tCO2e per MWh give "271.43 tCO2e".

    energy (kWh) = devices × hours × power (kW) × PUE
    cost = energy × price per kWh;  emissions = energy × kg CO2e per kWh
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import cost, units

N_, NP_ = messages_of(__name__)

_FLEET = N_("Fleet")
_GRID = N_("Data center and grid")

DEVICES = InputSpec(
    name="devices",
    kind=Kind.INTEGER,
    group=_FLEET,
    label=N_("Accelerators"),
    help=N_("How many GPUs or TPUs serve the traffic."),
    default="1",
    unit=N_("accelerators"),
    minimum=Decimal(1),
    maximum=Decimal(100000000),
    fraction_digits=0,
)
POWER = InputSpec(
    name="power_w",
    kind=Kind.DECIMAL,
    group=_FLEET,
    label=N_("Average power per accelerator"),
    help=N_(
        "What one accelerator draws on average, in watts. The rated maximum (700 W for an H100 SXM) is an upper "
        "bound; PaLM's TPU v4 chips averaged 378.5 W. Add the host's share if you measured it.",
    ),
    default="700",
    unit=N_("W"),
    minimum=Decimal(0),
    maximum=Decimal(100000),
    fraction_digits=2,
)
HOURS = InputSpec(
    name="hours",
    kind=Kind.DECIMAL,
    group=_FLEET,
    label=N_("Hours"),
    help=N_("How long the accelerators run: 730 for a month around the clock."),
    default="730",
    unit=N_("hours"),
    minimum=Decimal(0),
    maximum=Decimal(1000000000),
    fraction_digits=2,
)
TOKENS = InputSpec(
    name="tokens_million",
    kind=Kind.DECIMAL,
    group=_FLEET,
    label=N_("Tokens generated in that time"),
    help=N_("In millions of tokens; 0 to leave out the cost per token."),
    default="0",
    unit=N_("million tokens"),
    minimum=Decimal(0),
    maximum=Decimal("1e12"),
    fraction_digits=3,
)
PUE = InputSpec(
    name="pue",
    kind=Kind.DECIMAL,
    group=_GRID,
    label=N_("Power usage effectiveness (PUE)"),
    help=N_(
        "The data center's total energy divided by its IT equipment's: 1.08 for PaLM's Google data center, "
        "higher for most others.",
    ),
    default="1.08",
    minimum=Decimal(1),
    maximum=Decimal(10),
    fraction_digits=3,
)
ENERGY_PRICE = cost.price_input(
    "energy_price",
    N_("Electricity price"),
    N_("What a kilowatt-hour costs you, from your tariff or your provider."),
    "0.15",
    preset=None,
    unit=N_("per kWh"),
)
INTENSITY = InputSpec(
    name="carbon_intensity",
    kind=Kind.DECIMAL,
    group=_GRID,
    label=N_("Grid carbon intensity"),
    help=N_(
        "Kilograms of CO2 equivalent per kilowatt-hour, the same number as tonnes per megawatt-hour: 0.079 for "
        "the Oklahoma data center that trained PaLM.",
    ),
    default="0.079",
    unit=units.KG_CO2E_PER_KWH,
    minimum=Decimal(0),
    maximum=Decimal(10),
    fraction_digits=4,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the facility's energy, its cost, its emissions and the cost per million tokens.

    PaLM's appendix B: 8,404,992 chip-hours × 378.5 W × PUE 1.08 = 3,435.8 MWh, × 0.079 t/MWh = 271.43 tCO2e:

    >>> palm = {"devices": 8404992, "hours": 1, "power_w": 378.5, "pue": 1.08, "carbon_intensity": 0.079,
    ...         "energy_price": 0, "tokens_million": 0}
    >>> result = compute(palm)
    >>> round(result["energy_kwh"] / 1000, 1), round(result["emissions_kg"] / 1000, 2)
    (3435.8, 271.43)
    """
    energy = values["devices"] * values["hours"] * values["power_w"] / 1000 * values["pue"]
    energy_cost = energy * values["energy_price"]
    tokens = values["tokens_million"]
    return {
        "energy_kwh": energy,
        "energy_cost": energy_cost,
        "emissions_kg": energy * values["carbon_intensity"],
        "cost_per_million_tokens": energy_cost / tokens if tokens else 0.0,
    }


CALCULATOR = Calculator(
    title=N_("Inference energy cost"),
    summary=N_(
        "The electricity accelerators draw while they serve a model, what it costs and what it emits, from their "
        "power, the data center's PUE and the grid's price and carbon intensity.",
    ),
    inputs=(DEVICES, POWER, HOURS, TOKENS, PUE, ENERGY_PRICE, INTENSITY, cost.CURRENCY),
    outputs=(
        OutputSpec(
            name="energy_kwh",
            label=N_("Energy"),
            unit=N_("kWh"),
            # Translators: {devices} is a number of accelerators, {power_w} watts, {hours} hours, {pue} a ratio and
            # {energy_kwh} kilowatt-hours.
            sentence=N_(
                "{devices} accelerators drawing {power_w} W for {hours} hours, in a data center of PUE {pue}, use "
                "{energy_kwh} kWh.",
            ),
            fraction_digits=2,
        ),
        OutputSpec(
            name="energy_cost",
            label=N_("Electricity cost"),
            # Translators: {energy_price}, {energy_cost} and {cost_per_million_tokens} are amounts of money with
            # their currency code.
            sentence=N_(
                "At {energy_price} per kWh the electricity costs {energy_cost}, {cost_per_million_tokens} per million "
                "tokens generated (0 when no tokens are entered).",
            ),
            currency=cost.CURRENCY.name,
        ),
        OutputSpec(
            name="emissions_kg",
            label=N_("Emissions"),
            unit=N_("kg CO2e"),
            # Translators: {emissions_kg} is kilograms of CO2 equivalent, {carbon_intensity} kilograms per kWh.
            sentence=N_(
                "At {carbon_intensity} kg CO2e per kWh the grid emits {emissions_kg} kg of CO2 equivalent for it.",
            ),
            fraction_digits=2,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(r"E = n \cdot t \cdot P \cdot \mathrm{PUE}, \quad C = E \cdot p_{kWh}, \quad CO_2e = E \cdot I",),
    money=("cost_per_million_tokens",),
    related=("training-carbon", "gpu-cloud-cost", "gpu-utilization-cost", "self-host-vs-api"),
)
