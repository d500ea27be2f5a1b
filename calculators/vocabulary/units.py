"""Units and answers that many calculators' inputs share, each translated once in the "input" context."""

from __future__ import annotations

from calculators.kernel.spec import N_, Choice

__all__ = ["BYTES", "GB", "GIB", "GPUS", "IMAGES", "KG_CO2E_PER_KWH", "PERCENT", "SEQUENCES", "TFLOP_S", "YES_NO"]

PERCENT = N_("input", "%")
SEQUENCES = N_("input", "sequences")
GPUS = N_("input", "GPUs")
TFLOP_S = N_("input", "TFLOP/s")
GB = N_("input", "GB")
GIB = N_("input", "GiB")
BYTES = N_("input", "bytes")
IMAGES = N_("input", "images")
KG_CO2E_PER_KWH = N_("input", "kg CO₂e/kWh")
# A yes/no switch: "1" yes, "0" no, as query strings have always carried it.
YES_NO = (Choice("1", N_("input", "Yes")), Choice("0", N_("input", "No")))
