"""Writes pmx_client/types.py from the server's OpenAPI document: a TypedDict per response shape.

    /usr/bin/python3 tools/generate_types.py http://127.0.0.1:3000/openapi.json > pmx_client/types.py

The server must run with the faucet on (FAUCET_ENABLED=true): its route, whose answer is
FaucetResult, is in the document only of a server that serves it. Funding is not needed, nor any
data: `SERVER_FOR_TYPES` below is such a server, on an in-memory store.

The routes and the names of their shapes are listed below; a nested object takes the name of an
identical shape already named, a name from NESTED, or its parent's name and its field's.
tests/test_types.py regenerates the file from a running server and compares, so the types cannot
drift from what the server answers.
"""

from __future__ import annotations

import json
import keyword
import sys
import urllib.request
from typing import Any

#: (method, path, name of the answer's shape, or of its items when the answer is an array).
ROUTES: list[tuple[str, str, str]] = [
    ("get", "/api/v1/exchange", "ExchangeInfo"),
    ("get", "/api/v1/account", "Account"),
    ("post", "/api/v1/auth/login", "SignInSession"),
    ("get", "/api/v1/auth/api-keys", "ApiKeySummary"),
    ("get", "/api/v1/account/balance", "Balances"),
    ("post", "/api/v1/account/faucet", "FaucetResult"),
    ("post", "/api/v1/account/withdraw", "WithdrawResult"),
    ("get", "/api/v1/markets/{idOrSlug}", "Market"),
    ("get", "/api/v1/events/{idOrSlug}", "Event"),
    ("get", "/api/v1/events", "EventPage"),
    ("get", "/api/v1/markets/{marketId}/volume", "MarketVolume"),
    ("get", "/api/v1/markets/{idOrSlug}/holders", "MarketHolders"),
    ("get", "/api/v1/markets/activity", "ActivityPage"),
    ("get", "/api/v1/events/{idOrSlug}/positions", "EventUserPositions"),
    ("post", "/api/v1/markets/{marketId}/split", "SplitResult"),
    ("post", "/api/v1/orders", "Order"),
    ("get", "/api/v1/orders/{id}", "OrderWithMarket"),
    ("get", "/api/v1/orders/paginated", "OrderPagination"),
    ("post", "/api/v1/orders/batch", "BatchOrderResponse"),
    ("post", "/api/v1/orders/batch-cancel", "BatchCancelResponse"),
    ("post", "/api/v1/orders/cancel-all", "CancelAllOrdersResponse"),
    ("get", "/api/v1/orders/events", "OrderbookEventPage"),
    ("get", "/api/v1/order-book/book", "OrderBook"),
    ("get", "/api/v1/order-book/last-trade-price", "LastTradePrice"),
    ("get", "/api/v1/price-history", "PriceHistory"),
    ("get", "/api/v1/trades", "TradesList"),
    ("get", "/api/v1/trades/activity", "TradeActivityList"),
    ("get", "/api/v1/markets/user-positions", "UserPositionsPage"),
    ("get", "/api/v1/markets/value", "UserPositionValue"),
    ("get", "/api/v1/markets/user-activity", "UserActivityPage"),
    ("get", "/api/v1/markets/redeemable-positions", "RedeemablePosition"),
    ("post", "/api/v1/markets/redeem-positions/batch", "BatchRedeemResponse"),
    ("get", "/api/v1/markets/mergeable-positions", "MergeablePosition"),
    ("post", "/api/v1/markets/merge-positions/batch", "BatchMergeResponse"),
    ("get", "/api/v1/rewards/me/summary", "UserRewardsSummary"),
    ("get", "/api/v1/rewards/me/qualifying-orders", "QualifyingOrder"),
    ("get", "/api/v1/rewards/me/history", "PayoutHistoryPage"),
    ("post", "/api/v1/rewards/me/claim", "ClaimResponse"),
    ("get", "/api/v1/rewards/markets/{marketId}/pool", "MarketRewardDetail"),
    ("get", "/api/v1/rewards/markets/pools", "RewardPoolsPage"),
    ("get", "/api/v1/rewards/leaderboard", "RewardsLeaderboard"),
    ("get", "/api/v1/profiles/by-name/{name}/summary", "ProfileSummary"),
    ("get", "/api/v1/profiles/by-name/{name}/pnl-history", "PnlHistory"),
    ("get", "/api/v1/profiles/by-name/{name}/positions", "ProfilePositions"),
    ("get", "/api/v1/profiles/by-name/{name}/activity", "ProfileActivity"),
    ("get", "/api/v1/markets/{marketId}/resolution", "Resolution"),
]

#: Names of nested shapes: "Parent.field" (an object, or an array's items) or "Parent|n" (the
#: n-th alternative of an anyOf).
NESTED: dict[str, str] = {
    "Event.categories": "Category",
    "Event.tags": "Tag",
    "Event.markets": "EventMarket",
    "MarketReward.boostWindows": "RewardBoostWindow",
    "EventPage.data": "Event",
    "Balances.collateral": "CollateralBalance",
    "Balances.tokens": "TokenBalance",
    "MarketHolders.outcome1": "MarketHoldersOutcome",
    "MarketHoldersOutcome.holders": "MarketHolder",
    "ActivityPage|0": "ActivityOffsetPage",
    "ActivityPage|1": "ActivityCursorPage",
    "ActivityOffsetPage.data": "Activity",
    "EventUserPositions.positions": "EventUserPosition",
    "OrderWithMarket.marketInfo": "OrderMarketInfo",
    "OrderPagination.data": "OrderWithMarket",
    "BatchOrderResponse.results": "BatchOrderResult",
    "BatchCancelResponse.results": "BatchCancelOrderResult",
    "OrderbookEventPage.data": "OrderbookEvent",
    "OrderbookEvent.marketsView": "OrderbookEventMarket",
    "OrderBook.bids": "OrderBookLevel",
    "PriceHistory.data": "PriceHistoryPoint",
    "TradesList.data": "Trade",
    "TradeActivityList.data": "TradeActivity",
    "UserPositionsPage.data": "UserPosition",
    "UserActivityPage.data": "UserActivity",
    "BatchRedeemResponse.excluded": "ExcludedRedeem",
    "BatchMergeResponse.excluded": "ExcludedMerge",
    "UserRewardsSummary.todayByMarket": "UserRewardsMarketBreakdown",
    "UserRewardsSummary.yesterdaySettled": "YesterdaySettledRewards",
    "YesterdaySettledRewards.perMarket": "YesterdayMarketPayout",
    "PayoutHistoryPage.data": "UserPayoutHistoryItem",
    "RewardPoolsPage.data": "PublicRewardsEventGroup",
    "RewardsLeaderboard.data": "RewardsLeaderboardEntry",
    "PnlHistory.points": "PnlHistoryPoint",
    "ProfilePositions|0": "ActiveProfilePosition",
    "ProfilePositions|1": "ClosedProfilePosition",
    "Market.priceTargetConfig": "PriceTargetConfig",
    "Event.metadata": "EventMetadata",
}

_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
_IGNORED_KEYS = {"description", "format", "title", "examples", "default", "minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems"}


def _canonical(schema: Any) -> str:
    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in sorted(node.items()) if k not in _IGNORED_KEYS}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    return json.dumps(strip(schema), sort_keys=True)


class Generator:
    def __init__(self) -> None:
        self.by_shape: dict[str, str] = {}
        self.emitted: list[str] = []
        self.names: set[str] = set()
        self.used: set[str] = set()

    def nested(self, key: str, default: str) -> str:
        self.used.add(key)
        return NESTED.get(key, default)

    def type_of(self, schema: dict[str, Any], name: str) -> str:
        """The annotation of a schema; objects become TypedDicts named `name` (or a known name)."""
        if "anyOf" in schema:
            variants = schema["anyOf"]
            objects = [v for v in variants if _is_object(v) or (v.get("type") == "array" and _is_object(v.get("items", {})))]
            parts: list[str] = []
            for index, variant in enumerate(variants):
                sub_name = self.nested(f"{name}|{index}", f"{name}Variant{index}") if len(objects) > 1 else name
                parts.append(self.type_of(variant, sub_name))
            return _union(parts)
        if "enum" in schema:
            return "Literal[" + ", ".join(repr(v) for v in schema["enum"]) + "]"
        if "const" in schema:
            return f"Literal[{schema['const']!r}]"
        kind = schema.get("type")
        if isinstance(kind, list):
            return _union([_SCALARS[k] for k in kind])
        if kind == "array":
            return f"list[{self.type_of(schema.get('items', {}), name)}]"
        if kind == "object":
            if not schema.get("properties"):
                return "dict[str, Any]"
            return self.object_type(schema, name)
        if kind in _SCALARS:
            return _SCALARS[kind]
        return "Any"

    def object_type(self, schema: dict[str, Any], name: str) -> str:
        shape = _canonical(schema)
        if shape in self.by_shape:
            return self.by_shape[shape]
        if name in self.names:
            raise SystemExit(f"two different shapes named {name}: add a NESTED name")
        self.names.add(name)
        self.by_shape[shape] = name
        required = set(schema.get("required", []))
        fields = [(field, self.type_of(sub, self.nested(f"{name}.{field}", name + field[:1].upper() + field[1:])), field in required) for field, sub in schema["properties"].items()]
        self.emitted.append(_typed_dict(name, fields))
        return name


def _is_object(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "object" and bool(schema.get("properties"))


def _union(parts: list[str]) -> str:
    unique = list(dict.fromkeys(parts))
    literals = [p for p in unique if p.startswith("Literal[")]
    others = [p for p in unique if not p.startswith("Literal[")]
    if len(literals) > 1:  # Literal['A'] | Literal['B'] as Literal['A', 'B']
        others.insert(0, "Literal[" + ", ".join(p[len("Literal[") : -1] for p in literals) + "]")
    else:
        others = literals + others
    return " | ".join(others)


def _typed_dict(name: str, fields: list[tuple[str, str, bool]]) -> str:
    required = [(f, t) for f, t, r in fields if r]
    optional = [(f, t) for f, t, r in fields if not r]
    awkward = any(_awkward(f) for f, _, _ in fields)
    if any(_awkward(f) for f, _ in optional):
        raise SystemExit(f"{name}: an optional field that is not an identifier needs a new rule here")
    if not optional:
        return _block(name, required, total=True, base=None, functional=awkward)
    if not required:
        return _block(name, optional, total=False, base=None, functional=False)
    base = f"_{name}Required"
    return _block(base, required, total=True, base=None, functional=awkward) + "\n\n" + _block(name, optional, total=False, base=base, functional=False)


def _awkward(field: str) -> bool:
    return not field.isidentifier() or keyword.iskeyword(field)


def _block(name: str, fields: list[tuple[str, str]], *, total: bool, base: str | None, functional: bool) -> str:
    if functional:
        body = "".join(f"        {f!r}: {t},\n" for f, t in fields)
        return f'{name} = TypedDict(\n    "{name}",\n    {{\n{body}    }},\n)\n'
    parents = base or "TypedDict"
    header = f"class {name}({parents}{'' if total else ', total=False'}):\n"
    return header + "".join(f"    {f}: {t}\n" for f, t in fields)


#: Routes a server has only when configured to (their shapes are in its document only then), and the
#: setting that turns each on.
CONFIGURED_ROUTES: dict[tuple[str, str], str] = {("post", "/api/v1/account/faucet"): "FAUCET_ENABLED=true"}

#: A server with every route of ROUTES, on a free port, keeping nothing (CHAIN=none: no anvil).
SERVER_FOR_TYPES = "FAUCET_ENABLED=true PORT=3999 DATA_DIR=memory:// CHAIN=none node dist/server/main.js serve"


def missing_routes(document: dict[str, Any]) -> str | None:
    """Why the document cannot give every shape of ROUTES, in one line, or None when it can."""
    missing = [(method, path) for method, path, _ in ROUTES if method not in document["paths"].get(path, {})]
    if not missing:
        return None
    named = ", ".join(f"{method.upper()} {path}" for method, path in missing)
    settings = sorted({CONFIGURED_ROUTES[route] for route in missing if route in CONFIGURED_ROUTES})
    if len(settings) == len(missing):
        return (
            f"the document has no {named}: its server runs without {', '.join(settings)}, and the types describe every route;"
            f" generate them from a server with it, such as `{SERVER_FOR_TYPES}` (from the repository's root, after npm run build)"
        )
    return f"the document has no {named}: is its server of another version than this client?"


def generate(document: dict[str, Any]) -> str:
    problem = missing_routes(document)
    if problem:
        raise SystemExit(problem)
    generator = Generator()
    aliases: list[str] = []
    for method, path, name in ROUTES:
        responses = document["paths"][path][method]["responses"]
        status = next(code for code in responses if code.startswith("2"))
        schema = responses[status]["content"]["application/json"]["schema"]
        named = generator.type_of(schema.get("items", schema) if schema.get("type") == "array" else schema, name)
        if named != name:  # the same shape as one named before: the route's name too
            aliases.append(f"{name} = {named}\n")
    unused = set(NESTED) - generator.used
    if unused:
        raise SystemExit(f"NESTED names no shape: {sorted(unused)}")
    header = (
        '"""Response shapes of the API (SPEC.md section 2, EXTENSIONS.md), as the server\'s OpenAPI document\n'
        "describes them. Generated by tools/generate_types.py: do not edit by hand.\n"
        '"""\n\n'
        "# ruff: noqa\n"
        "from __future__ import annotations\n\n"
        "from typing import Any, Literal, TypedDict\n"
    )
    aliases.append("#: The answer of GET /profiles/by-name/{name}/positions: active or closed positions.\nProfilePosition = ActiveProfilePosition | ClosedProfilePosition\n")
    return header + "\n\n" + "\n\n".join(generator.emitted) + "\n\n" + "".join(aliases)


def main() -> None:
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:3000/openapi.json"
    with urllib.request.urlopen(url) as response:  # noqa: S310 - a URL the developer names
        document = json.load(response)
    sys.stdout.write(generate(document))


if __name__ == "__main__":
    main()
