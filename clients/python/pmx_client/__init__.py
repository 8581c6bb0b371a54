"""pmx-client: a Python client of the PMX prediction-market exchange.

Sign-in with Ethereum, HMAC-signed API keys, EIP-712 orders built from decimal prices and sizes,
typed errors, safe retries, and local order books kept in sync over Socket.IO; blocking
(`Client`) and asyncio (`AsyncClient`).
"""

from .amounts import from_base_units, order_amounts, to_base_units
from .book import Book, Level
from .client import AsyncClient, Client
from .eip712 import OrderDomain, OrderMessage, order_domain, order_hash
from .errors import (
    AuthenticationError,
    ConflictError,
    ExchangeError,
    FeedError,
    ForbiddenError,
    NotFoundError,
    OrderBuildError,
    PmxError,
    RateLimitedError,
    ServiceUnavailableError,
    ValidationError,
)
from .feeds import BookWatcher, UserFeed, UserMessage
from .hmac_auth import ApiKeyCredentials
from .orders import CreateOrder, OrderSpec
from .session import RetryPolicy
from .wallet import Wallet

__all__ = [
    "ApiKeyCredentials",
    "AsyncClient",
    "AuthenticationError",
    "Book",
    "BookWatcher",
    "Client",
    "ConflictError",
    "CreateOrder",
    "ExchangeError",
    "FeedError",
    "ForbiddenError",
    "Level",
    "NotFoundError",
    "OrderBuildError",
    "OrderDomain",
    "OrderMessage",
    "OrderSpec",
    "PmxError",
    "RateLimitedError",
    "RetryPolicy",
    "ServiceUnavailableError",
    "UserFeed",
    "UserMessage",
    "ValidationError",
    "Wallet",
    "from_base_units",
    "order_amounts",
    "order_domain",
    "order_hash",
    "to_base_units",
]
