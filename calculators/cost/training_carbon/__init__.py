"""Training carbon footprint: the electricity a run draws and the greenhouse gases it emits.

The estimate of Touvron et al. (LLaMA, arXiv:2302.13971, §6, after Wu et al. 2022) and of Patterson et al.
(arXiv:2104.10350, Table 4): the GPUs' energy scaled up by the data center's power usage effectiveness (PUE),
times the carbon intensity of the grid that supplies it.

    E = GPU-hours × power per GPU × PUE        emissions = E × carbon intensity

kWh × kg CO2e per kWh gives kilograms; MWh × the same number gives tonnes. The intensity is location-based:
the average of the grid where the electricity is drawn, before renewable energy certificates or offsets
(market-based figures, such as Meta's zero for Llama 3.1, subtract those purchases).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from calculators.kernel.spec import Calculator, InputSpec, Kind, OutputSpec, messages_of
from calculators.vocabulary import units

N_, NP_ = messages_of(__name__)

_RUN = N_("Training run")
_DATA_CENTER = N_("Data center and grid")

GPU_HOURS = InputSpec(
    name="gpu_hours",
    kind=Kind.DECIMAL,
    group=_RUN,
    label=N_("GPU-hours"),
    help=N_(
        "Every GPU of the run counted for every hour it ran. The default is the 1.3 million H100 GPU-hours "
        "Meta reports for pretraining Llama 3 8B.",
    ),
    default="1300000",
    unit=N_("GPU-hours"),
    minimum=Decimal(0),
    maximum=Decimal(1_000_000_000_000),
    fraction_digits=2,
)
POWER = InputSpec(
    name="gpu_power_w",
    kind=Kind.DECIMAL,
    group=_RUN,
    label=N_("Power per GPU"),
    help=N_(
        "What one GPU draws, in watts. Its thermal design power is an upper bound: 700 W for an H100 SXM, "
        "400 W for an A100 SXM. A measured average is lower.",
    ),
    default="700",
    unit=N_("W"),
    minimum=Decimal(0),
    maximum=Decimal(100_000),
    fraction_digits=2,
)
PUE = InputSpec(
    name="pue",
    kind=Kind.DECIMAL,
    group=_DATA_CENTER,
    label=N_("Power usage effectiveness (PUE)"),
    help=N_(
        "The data center's total power divided by its computing equipment's: cooling and power delivery on "
        "top. 1.1 is the figure the LLaMA and Patterson et al. estimates use; enter 1 when the power per GPU "
        "already includes it, as in Meta's model cards.",
    ),
    default="1.1",
    minimum=Decimal(1),
    maximum=Decimal(10),
    fraction_digits=3,
)
CARBON_INTENSITY = InputSpec(
    name="carbon_intensity",
    kind=Kind.DECIMAL,
    group=_DATA_CENTER,
    label=N_("Grid carbon intensity"),
    help=N_(
        "Greenhouse gases emitted per kilowatt-hour the grid delivers, location-based. 0.385 is the US "
        "average the LLaMA paper uses; a grid of mostly hydro or nuclear power is below 0.05.",
    ),
    default="0.385",
    unit=units.KG_CO2E_PER_KWH,
    minimum=Decimal(0),
    maximum=Decimal(10),
    fraction_digits=4,
)


def compute(values: Mapping[str, float]) -> dict[str, float]:
    """Return the energy in MWh, the emissions in tonnes of CO2e and the emissions per GPU-hour in kg.

    LLaMA-7B (Touvron et al., Table 15): 82,432 GPU-hours at 400 W, PUE 1.1 and 0.385 kg CO2e/kWh,
    printed as 36 MWh and 14 tCO2eq:

    >>> r = compute({"gpu_hours": 82432, "gpu_power_w": 400, "pue": 1.1, "carbon_intensity": 0.385})
    >>> round(r["energy_mwh"], 2), round(r["emissions_tonnes"], 2)
    (36.27, 13.96)
    """
    energy_kwh = values["gpu_hours"] * values["gpu_power_w"] / 1000 * values["pue"]
    per_gpu_hour = values["gpu_power_w"] / 1000 * values["pue"] * values["carbon_intensity"]
    return {
        "energy_mwh": energy_kwh / 1000,
        "emissions_tonnes": energy_kwh * values["carbon_intensity"] / 1000,
        "emissions_per_gpu_hour": per_gpu_hour,
    }


CALCULATOR = Calculator(
    title=N_("Training carbon footprint"),
    summary=N_(
        "Estimate the electricity a training run uses and the CO₂-equivalent it emits, from its GPU-hours, "
        "the power per GPU, the data center's PUE and the grid's carbon intensity.",
    ),
    inputs=(GPU_HOURS, POWER, PUE, CARBON_INTENSITY),
    outputs=(
        OutputSpec(
            name="emissions_tonnes",
            label=N_("Emissions"),
            unit=N_("t CO₂e"),
            # Translators: {energy_mwh} is a formatted number of megawatt-hours; {carbon_intensity} a number of
            # kilograms of CO₂-equivalent per kilowatt-hour; {emissions_tonnes} a number of tonnes.
            sentence=N_(
                "{energy_mwh} MWh at {carbon_intensity} kg CO₂e per kWh emit about {emissions_tonnes} tonnes "
                "of CO₂-equivalent, counted at the grid's average (location-based).",
            ),
            fraction_digits=2,
        ),
        OutputSpec(
            name="energy_mwh",
            label=N_("Energy"),
            unit=N_("MWh"),
            # Translators: {gpu_hours} is a formatted number of GPU-hours; {gpu_power_w} a number of watts;
            # {pue} a ratio such as 1.1; {energy_mwh} a number of megawatt-hours.
            sentence=N_(
                "{gpu_hours} GPU-hours at {gpu_power_w} W each, times a PUE of {pue}, draw {energy_mwh} MWh "
                "from the grid.",
            ),
            fraction_digits=2,
        ),
        OutputSpec(
            name="emissions_per_gpu_hour",
            label=N_("Emissions per GPU-hour"),
            unit=N_("kg CO₂e"),
            # Translators: {emissions_per_gpu_hour} is a formatted number of kilograms of CO₂-equivalent.
            sentence=N_(
                "Each GPU-hour emits {emissions_per_gpu_hour} kg of CO₂-equivalent, whatever the length of the run.",
            ),
            fraction_digits=4,
        ),
    ),
    compute=compute,
    updated="2026-12-02",
    formulas=(
        r"E = \text{GPU-hours} \times P_{\text{GPU}} \times \mathrm{PUE}",
        r"\text{CO}_2\text{e} = E \times \mathrm{CI}",
    ),
    related=("training-time-cost", "inference-energy-cost", "training-flops"),
)
