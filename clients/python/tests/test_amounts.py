"""Exact amounts and the tick rules, checked locally with the codes the server answers."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pmx_client import OrderBuildError, from_base_units, order_amounts, to_base_units


def test_buy_and_sell_amounts_are_exact_base_units() -> None:
    buy = order_amounts("BUY", "0.42", "10", "0.01")
    assert (buy.maker_amount, buy.taker_amount, buy.price_micros) == (4_200_000, 10_000_000, 420_000)
    sell = order_amounts("SELL", Decimal("0.125"), 3, "0.001")
    assert (sell.maker_amount, sell.taker_amount) == (3_000_000, 375_000)


@pytest.mark.parametrize(
    ("price", "size", "tick", "code"),
    [
        ("0.425", "10", "0.01", "ORDER_PRICE_NOT_ON_TICK"),
        ("1", "10", "0.01", "ORDER_PRICE_OUT_OF_RANGE"),
        ("0", "10", "0.01", "ORDER_PRICE_OUT_OF_RANGE"),
        ("0.5", "10.00001", "0.01", "ORDER_SIZE_NOT_ON_TICK"),
        ("0.5", "0", "0.01", "ORDER_AMOUNT_INVALID"),
        ("0.5", "99999999999999", "0.01", "ORDER_AMOUNT_INVALID"),
        ("-0.5", "10", "0.01", "VALIDATION_FAILED"),
        ("0.5", "1e3", "0.01", "VALIDATION_FAILED"),
    ],
)
def test_orders_the_server_would_refuse_fail_locally_with_its_code(price: str, size: str, tick: str, code: str) -> None:
    with pytest.raises(OrderBuildError) as refused:
        order_amounts("BUY", price, size, tick)
    assert refused.value.code == code


def test_floats_are_refused_never_rounded() -> None:
    with pytest.raises(OrderBuildError, match="never a float"):
        order_amounts("BUY", 0.42, "10", "0.01")  # type: ignore[arg-type]
    with pytest.raises(OrderBuildError):
        to_base_units("1.0000001")


def test_display_units_round_trip() -> None:
    assert to_base_units("12.5") == 12_500_000
    assert from_base_units(12_500_000) == "12.5"
    assert from_base_units(-1) == "-0.000001"
    assert from_base_units(3_000_000) == "3"
