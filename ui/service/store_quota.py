"""A quota on the LangGraph API's store (``PUT /store/items``), which LangGraph's server keeps in memory
and pickles under the data directory: 400 PUTs of 256 KB made it 110 MB, with no end.

prp's graph does not use the store; Studio may (its memory view). This ASGI middleware reads an item
as it is put and answers 413 with the reason when the store would then hold more than
``PRP_STORE_MAX_ITEMS`` items or more than ``PRP_STORE_MAX_MB`` of JSON values (an item replaced
counts once, at its new size). The count walks the store's items, at most the quota's number of them.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

from ui.service import langgraph_server
from ui.service.body_limit import BodyTooLarge, ClientGone, read_body, refuse

ITEMS_PATH = "/store/items"
_MB = 1_000_000


class StoreQuota:
    """ASGI middleware: see the module's docstring."""

    def __init__(self, app: ASGIApp, max_items: int, max_mb: float):
        self.app = app
        self.max_items = max_items
        self.max_bytes = int(max_mb * _MB)
        self.max_mb = max_mb

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "PUT" or scope.get("path", "").rstrip("/") != ITEMS_PATH:
            await self.app(scope, receive, send)
            return
        try:
            body, replay = await read_body(receive, self.max_bytes + 4096)  # the value and its namespace and key
        except BodyTooLarge:
            await refuse(send, 413, self._over_size())
            return
        except ClientGone:
            return
        refusal = await self._refusal(body)
        if refusal:
            await refuse(send, 413, refusal)
            return
        await self.app(scope, replay, send)

    async def _refusal(self, body: bytes) -> str | None:
        try:
            payload = json.loads(body)
            namespace, key, value = tuple(payload["namespace"] or ()), str(payload["key"]), payload.get("value")
        except (ValueError, TypeError, KeyError):
            return None  # not an item: LangGraph's server answers it itself
        store = await langgraph_server.store()
        held = await store.asearch((), limit=self.max_items + 1)
        replaced = next((i for i in held if tuple(i.namespace) == namespace and i.key == key), None)
        if replaced is None and len(held) >= self.max_items:
            return (
                f"the store holds {len(held):,} items, its limit (PRP_STORE_MAX_ITEMS is {self.max_items:,}): "
                "delete some (DELETE /store/items) before putting more"
            )
        size = sum(_size(i.value) for i in held if i is not replaced) + _size(value)
        if size > self.max_bytes:
            return self._over_size()
        return None

    def _over_size(self) -> str:
        return (
            f"the store would hold over {self.max_mb:g} MB of values, its limit (PRP_STORE_MAX_MB): delete some "
            "items (DELETE /store/items) or put smaller ones"
        )


def _size(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())
