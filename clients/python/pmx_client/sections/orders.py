from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Literal, TypeVar, Union

from ..errors import ExchangeError, OrderBuildError
from ..flow import Flow, M, Section, api, paged
from ..orders import CreateOrder, OrderSpec, Signer, build_order, check_spec
from ..pagination import by_cursor
from ..session import QueryValue, Session, segment
from ..types import BatchCancelOrderResult, BatchOrderResult, CancelAllOrdersResponse, Market, Order, OrderbookEventPage, OrderPagination, OrderWithMarket

#: The server's batch limit of POST /orders/batch and /orders/batch-cancel (SPEC.md section 8).
BATCH_MAX = 50
Progress = Callable[[int, int], None]
OrderInput = Union[OrderSpec, CreateOrder]
T = TypeVar("T")


#: Refusals of an order on its market's rules as the client cached them before an operator changed
#: them (PATCH /admin/markets/{id}): off the tick, by the client's check or the server's; at the fee
#: rate it was signed with, by the server's only (the client checks no fee).
_TICK_CODES = frozenset({"ORDER_PRICE_NOT_ON_TICK", "ORDER_SIZE_NOT_ON_TICK"})
_FEE_RATE_MISMATCH = "ORDER_FEE_RATE_MISMATCH"
_RULES_CODES = _TICK_CODES | {_FEE_RATE_MISMATCH}


def _chunks(items: Sequence[T]) -> builtins.list[Sequence[T]]:
    return [items[i : i + BATCH_MAX] for i in range(0, len(items), BATCH_MAX)]


class OrdersSection(Section[M]):
    """Orders (SPEC.md 4.4), API-key HMAC. `place` takes an OrderSpec (built and signed here) or a ready CreateOrder."""

    def __init__(self, session: Session, driver: M, signature_type: Literal[0, 1] = 1) -> None:
        super().__init__(session, driver)
        #: 1: the proxy wallet is the maker (the default); 0: the wallet itself (EOA).
        self.signature_type = signature_type
        self._markets: dict[str, Market] = {}

    def forget_markets(self) -> None:
        """Forgets cached market rules: `build` and `place` read a market's again when its tick or a
        lowered fee refuses an order; this forgets every other rule too, and accepts a raised fee."""
        self._markets.clear()

    def _read_market(self, token_id: str) -> Flow[Market]:
        """The market of a token, read: its book names it, it holds the tick and fee rules."""
        book = yield from self._session.call("GET", "/order-book/book", query={"token_id": token_id})
        market: Market = yield from self._session.call("GET", f"/markets/{segment(book['market'])}")
        return market

    def _market_of(self, token_id: str) -> Flow[Market]:
        """The market of a token, cached."""
        if token_id not in self._markets:
            self._markets[token_id] = yield from self._read_market(token_id)
        return self._markets[token_id]

    def _followed(self, token_id: str, refusal: ExchangeError | OrderBuildError) -> Flow[Market]:
        """The token's market read afresh and cached, after `refusal` of an order built on its cached
        rules (an operator changed them): a new tick, or a fee rate no higher than the cached one, is
        followed. A raised rate is not: the caller never saw it, so nothing is signed at it and the
        cache keeps the old rules (later orders are refused the same way) until forget_markets()."""
        cached = yield from self._market_of(token_id)
        fresh = yield from self._read_market(token_id)
        if fresh["orderFeeRateBps"] > cached["orderFeeRateBps"]:
            message = (
                f"market {fresh['id']}'s fee rate was raised from {cached['orderFeeRateBps']} to {fresh['orderFeeRateBps']} bps since its rules were read; "
                "orders are not signed at the new rate until orders.forget_markets() accepts the new terms"
            )
            if isinstance(refusal, ExchangeError):
                raise type(refusal)(refusal.status_code, _FEE_RATE_MISMATCH, message, refusal.method, refusal.path)
            raise OrderBuildError(_FEE_RATE_MISMATCH, message)
        self._markets[token_id] = fresh
        return fresh

    def _signer(self) -> Flow[Signer | None]:
        s = self._session
        if s.wallet is None:
            return None
        if s.user is None:
            s.user = yield from s.call("GET", "/account", auth="jwtOrApiKey")
        assert s.user is not None
        return Signer(s.wallet, s.user["proxyWallet"], self.signature_type)

    def _build(self, spec: OrderSpec, market: Market | None = None) -> Flow[CreateOrder]:
        """Built on `market`'s rules, or the token's market's, cached: off the cached tick, checked again on the market read afresh (not at a fee rate raised meanwhile, `_followed`)."""
        check_spec(spec)
        if market is not None:
            return (yield from self._build_on(spec, market))
        try:
            return (yield from self._build_on(spec, (yield from self._market_of(spec.token_id))))
        except OrderBuildError as error:
            if error.code not in _TICK_CODES:
                raise
            refusal = error
        return (yield from self._build_on(spec, (yield from self._followed(spec.token_id, refusal))))

    def _build_on(self, spec: OrderSpec, rules: Market) -> Flow[CreateOrder]:
        exchange = yield from self._session.exchange()
        signer = yield from self._signer()
        return build_order(spec, rules, exchange, signer)

    def _body(self, order: OrderInput) -> Flow[CreateOrder]:
        if isinstance(order, OrderSpec):
            return (yield from self._build(order))
        return order

    @api
    def build(self, spec: OrderSpec, market: Market | None = None) -> Flow[CreateOrder]:
        """The signed CreateOrder of a spec (unsigned without a wallet), checked against the market's rules."""
        return (yield from self._build(spec, market))

    def _send(self, body: CreateOrder) -> Flow[Order]:
        placed: Order = yield from self._session.call("POST", "/orders", auth="apiKey", body=body, idempotent="idempotencyKey" in body)
        return placed

    @api
    def place(self, order: OrderInput) -> Flow[Order]:
        """Places one order; retried on 429/503 only when it carries an idempotency key (built orders always do).

        An OrderSpec the server refuses off its market's tick or at its fee rate (the operator changed
        them since the client cached the rules) is built once more on the market read afresh and sent
        again, the refused order never placed; but not at a raised fee rate, which raises
        ValidationError ORDER_FEE_RATE_MISMATCH naming both rates (`_followed`).
        """
        body = yield from self._body(order)
        try:
            return (yield from self._send(body))
        except ExchangeError as error:
            if not isinstance(order, OrderSpec) or error.code not in _RULES_CODES:
                raise
            refusal = error
        fresh = yield from self._followed(order.token_id, refusal)
        return (yield from self._send((yield from self._build_on(order, fresh))))

    @api
    def place_many(self, orders: Sequence[OrderInput], on_progress: Progress | None = None) -> Flow[builtins.list[BatchOrderResult]]:
        """Any number of orders, 50 per call; results in input order, `index` counting across calls."""
        results: builtins.list[BatchOrderResult] = []
        for chunk in _chunks(orders):
            bodies = []
            for order in chunk:
                bodies.append((yield from self._body(order)))
            answer = yield from self._session.call("POST", "/orders/batch", auth="apiKey", body={"orders": bodies}, idempotent=all("idempotencyKey" in b for b in bodies))
            offset = len(results)
            for result in answer["results"]:
                result["index"] += offset
                results.append(result)
            if on_progress:
                on_progress(len(results), len(orders))
        return results

    @api
    def cancel(self, order_id: str) -> Flow[Order]:
        cancelled: Order = yield from self._session.call("POST", f"/orders/{segment(order_id)}/cancel", auth="apiKey", idempotent=True)
        return cancelled

    @api
    def cancel_many(self, order_ids: Sequence[str], on_progress: Progress | None = None) -> Flow[builtins.list[BatchCancelOrderResult]]:
        """Any number of order ids, 50 per call; results in input order."""
        results: builtins.list[BatchCancelOrderResult] = []
        for chunk in _chunks(order_ids):
            answer = yield from self._session.call("POST", "/orders/batch-cancel", auth="apiKey", body={"orderIds": chunk}, idempotent=True)
            results.extend(answer["results"])
            if on_progress:
                on_progress(len(results), len(order_ids))
        return results

    @api
    def cancel_market(self, market_id: str) -> Flow[builtins.list[Order]]:
        cancelled: builtins.list[Order] = yield from self._session.call("POST", "/orders/cancel", auth="apiKey", body={"market": market_id}, idempotent=True)
        return cancelled

    @api
    def cancel_event(self, event_id: str) -> Flow[CancelAllOrdersResponse]:
        answer: CancelAllOrdersResponse = yield from self._session.call("POST", "/orders/cancel-event", auth="apiKey", body={"eventId": event_id}, idempotent=True)
        return answer

    @api
    def cancel_all(self) -> Flow[CancelAllOrdersResponse]:
        """Every open order of the caller; `failedMarkets` should be retried."""
        answer: CancelAllOrdersResponse = yield from self._session.call("POST", "/orders/cancel-all", auth="apiKey", idempotent=True)
        return answer

    @api
    def list(self, /, **query: QueryValue) -> Flow[builtins.list[OrderWithMarket]]:
        """The caller's orders (all but CANCELLED unless `status` says); not paginated."""
        orders: builtins.list[OrderWithMarket] = yield from self._session.call("GET", "/orders", auth="apiKey", query=query)
        return orders

    @api
    def page(self, /, **query: QueryValue) -> Flow[OrderPagination]:
        page: OrderPagination = yield from self._session.call("GET", "/orders/paginated", auth="apiKey", query=query)
        return page

    @paged(OrderWithMarket)
    def all(self, /, **query: QueryValue) -> Flow[None]:
        """Every order matching the filters (default: open ones), through the cursor of /orders/paginated."""
        yield from by_cursor(lambda cursor: self._session.call("GET", "/orders/paginated", auth="apiKey", query={**query, "cursor": cursor}))

    @api
    def get(self, order_id: str) -> Flow[OrderWithMarket]:
        order: OrderWithMarket = yield from self._session.call("GET", f"/orders/{segment(order_id)}", auth="apiKey")
        return order

    @api
    def events(self, /, **query: QueryValue) -> Flow[OrderbookEventPage]:
        """Events with ACTIVE markets, for order entry."""
        page: OrderbookEventPage = yield from self._session.call("GET", "/orders/events", auth="apiKey", query=query)
        return page
