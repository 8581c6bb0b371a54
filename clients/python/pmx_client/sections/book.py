from __future__ import annotations

from ..flow import Flow, M, Section, api, paged
from ..pagination import by_page, full_page
from ..session import QueryValue
from ..types import LastTradePrice, OrderBook, PriceHistory, PriceHistoryPoint


class BookSection(Section[M]):
    """Public prices (SPEC.md 4.5): a token's book, last trade price and price history."""

    @api
    def get(self, token_id: str) -> Flow[OrderBook]:
        book: OrderBook = yield from self._session.call("GET", "/order-book/book", query={"token_id": token_id})
        return book

    @api
    def last_trade_price(self, token_id: str) -> Flow[LastTradePrice]:
        price: LastTradePrice = yield from self._session.call("GET", "/order-book/last-trade-price", query={"token_id": token_id})
        return price

    @api
    def history(self, token: str, interval: str, fidelity: int, /, **query: QueryValue) -> Flow[PriceHistory]:
        """One page of a token's price per `fidelity`-minute bucket over `interval` (1H, 6H, 1D, 1W, 1M, ALL)."""
        page: PriceHistory = yield from self._session.call("GET", "/price-history", query={**query, "token": token, "interval": interval, "fidelity": fidelity})
        return page

    @paged(PriceHistoryPoint)
    def all_history(self, token: str, interval: str, fidelity: int, /, **query: QueryValue) -> Flow[None]:
        """Every point of the history, page after page."""
        fixed: dict[str, QueryValue] = {**query, "token": token, "interval": interval, "fidelity": fidelity}
        yield from by_page(lambda number: self._session.call("GET", "/price-history", query={**fixed, "page": number}), full_page)
