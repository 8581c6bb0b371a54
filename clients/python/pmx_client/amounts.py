"""Exact amounts: decimal prices and sizes to integer base units, never through a float.

Collateral and outcome tokens have 6 decimals ("12.5" = 12,500,000 base units). An order's
price and size are checked with the market's tick rules of EXTENSIONS.md section 11 (the price
on the tick and strictly between 0 and 1, the size a multiple of 10^d base units for a tick of
d decimals), so what the server would refuse fails here first, with the code it would answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal, Union

from .errors import OrderBuildError

DECIMALS = 6
UNIT = 10**DECIMALS
#: The store keeps sizes as int8: larger amounts are refused (ORDER_AMOUNT_INVALID).
MAX_AMOUNT = 2**63 - 1
_DECIMAL = re.compile(r"^(0|[1-9][0-9]*)(?:\.([0-9]+))?$")

#: A decimal as a string ("0.42"), a Decimal, or an int. Floats are refused: 0.1 + 0.2 is not 0.3.
DecimalLike = Union[str, Decimal, int]
Side = Literal["BUY", "SELL"]


def _pow10(exponent: int) -> int:
    return int(10**exponent)  # exponents here are never negative


def parse_decimal(value: DecimalLike, field: str) -> tuple[int, int]:
    """A non-negative decimal as `(units, scale)` meaning units / 10**scale, trailing zeros dropped."""
    if isinstance(value, bool) or not isinstance(value, (str, Decimal, int)):
        raise OrderBuildError("VALIDATION_FAILED", f"{field} {value!r} must be a decimal string such as \"0.42\" (or a Decimal), never a float")
    text = format(value, "f") if isinstance(value, Decimal) else str(value)
    match = _DECIMAL.match(text)
    if match is None or len(text) > 80:
        raise OrderBuildError("VALIDATION_FAILED", f"{field} {text!r} is not a plain non-negative decimal such as \"0.42\"")
    whole, fraction = str(match.group(1)), str(match.group(2) or "").rstrip("0")
    return int(whole + fraction), len(fraction)


def to_base_units(amount: DecimalLike) -> int:
    """Display units to base units: "12.5" -> 12500000. More than 6 decimals is refused, never rounded."""
    units, scale = parse_decimal(amount, "amount")
    if scale > DECIMALS:
        raise OrderBuildError("VALIDATION_FAILED", f"amount {amount} has more than {DECIMALS} decimals")
    return units * _pow10(DECIMALS - scale)


def from_base_units(base_units: int) -> str:
    """Base units to a display decimal string without trailing zeros: 12500000 -> "12.5"."""
    sign = "-" if base_units < 0 else ""
    whole, fraction = divmod(abs(base_units), UNIT)
    digits = f"{fraction:06d}".rstrip("0")
    return f"{sign}{whole}.{digits}" if digits else f"{sign}{whole}"


def tick_decimals(tick_size: str) -> int:
    """The decimals of a tick size: "0.01" -> 2."""
    units, scale = parse_decimal(tick_size, "tickSize")
    if units != 1 or not 1 <= scale <= 4:
        raise OrderBuildError("VALIDATION_FAILED", f"unsupported tick size {tick_size}")
    return scale


@dataclass(frozen=True)
class OrderAmounts:
    maker_amount: int
    taker_amount: int
    #: The price in millionths (CreateOrder `priceUint`).
    price_micros: int
    size_base_units: int


def order_amounts(side: Side, price: DecimalLike, size: DecimalLike, tick_size: str) -> OrderAmounts:
    """A BUY gives collateral (makerAmount) for tokens (takerAmount); a SELL the reverse."""
    d = tick_decimals(tick_size)
    p_units, p_scale = parse_decimal(price, "price")
    if p_units == 0 or p_units >= _pow10(p_scale):
        raise OrderBuildError("ORDER_PRICE_OUT_OF_RANGE", f"price {price} must be strictly between 0 and 1")
    if p_scale > d:
        raise OrderBuildError("ORDER_PRICE_NOT_ON_TICK", f"price {price} is not a multiple of the market tick {tick_size}")
    s_units, s_scale = parse_decimal(size, "size")
    if s_scale > DECIMALS - d:
        raise OrderBuildError("ORDER_SIZE_NOT_ON_TICK", f"size {size} has more than {DECIMALS - d} decimals, the most a market with tick {tick_size} allows")
    price_micros = p_units * _pow10(DECIMALS - p_scale)
    size_base_units = s_units * _pow10(DECIMALS - s_scale)
    cost = price_micros * size_base_units // UNIT
    if size_base_units == 0:
        raise OrderBuildError("ORDER_AMOUNT_INVALID", "size must be above zero")
    if size_base_units > MAX_AMOUNT or cost > MAX_AMOUNT:
        raise OrderBuildError("ORDER_AMOUNT_INVALID", f"size {size} is too large")
    maker, taker = (cost, size_base_units) if side == "BUY" else (size_base_units, cost)
    return OrderAmounts(maker, taker, price_micros, size_base_units)
