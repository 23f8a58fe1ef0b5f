"""``/mcp`` on the service's app through FastAPI's test client: the same guard as ``/api`` (token
beyond loopback, foreign origins refused, LangGraph Studio's origin too), and the REST routes the MCP
tools' ``cite`` and document resource read through a running service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from strategies.offline.strategy import OfflineStrategy
from ui.api.security import STUDIO_ORIGINS
from ui.core.local import LocalPortal
from ui.service.app import create_app

LOCAL = dict(base_url="http://127.0.0.1:8400", client=("127.0.0.1", 50000))
REMOTE = dict(base_url="http://192.0.2.10:8400", client=("192.0.2.20", 4000))
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def initialize(client: TestClient, **headers: str):
    return client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS | headers)


@pytest.fixture
def portal(sample_library) -> LocalPortal:
    return LocalPortal(sample_library, OfflineStrategy(sample_library.embedder))


def test_mcp_without_a_token_serves_this_machine_only_and_no_other_site(portal: LocalPortal) -> None:
    app = create_app(portal, chat=False)
    with TestClient(app, **REMOTE) as remote:
        assert initialize(remote).status_code == 403
    with TestClient(app, **LOCAL) as local:
        answered = initialize(local)
        assert answered.status_code == 200 and '"name":"prp"' in answered.text
        assert initialize(local, Host="attacker.example").status_code == 403  # DNS rebinding
        assert initialize(local, Origin="https://attacker.example").status_code == 403
        for studio in STUDIO_ORIGINS:  # allowed on the LangGraph API, never on the service's own routes
            assert initialize(local, Origin=studio).status_code == 403
        assert initialize(local, Origin="null").status_code == 403  # a sandboxed page may not call tools
        assert initialize(local, Origin="http://127.0.0.1:8400").status_code == 200


def test_mcp_with_a_token_needs_it(portal: LocalPortal) -> None:
    app = create_app(portal, token="s3cret-t0ken", chat=False)
    with TestClient(app, **REMOTE) as remote:
        assert initialize(remote).status_code == 401
        assert initialize(remote, Authorization="Bearer wrong").status_code == 401
        assert initialize(remote, Authorization="Bearer s3cret-t0ken").status_code == 200
        assert initialize(remote, **{"X-PRP-Token": "s3cret-t0ken"}).status_code == 200
        assert (
            initialize(remote, Authorization="Bearer s3cret-t0ken", Origin="https://attacker.example").status_code
            == 403
        )


@pytest.fixture(scope="module")
def api(sample_library) -> Iterator[TestClient]:
    app = create_app(LocalPortal(sample_library, OfflineStrategy(sample_library.embedder)), chat=False)
    with TestClient(app, **LOCAL) as client:
        yield client


def test_a_block_and_a_documents_pages_over_rest(api: TestClient, sample_library) -> None:
    document = next(d for d in sample_library.registry.documents() if d.type.value == "pdf")
    block = sample_library.registry.blocks_of(document.doc_id)[3]
    cited = api.get(f"/api/blocks/{block.block_id}").json()
    assert cited["text"] == block.text and cited["page"] == block.page and cited["bbox"] == block.bbox.model_dump()
    assert cited["document"]["doc_id"] == document.doc_id and cited["bibtex"].startswith("@")
    missing = api.get("/api/blocks/nope-0001")
    assert missing.status_code == 404 and "no block 'nope-0001'" in missing.json()["detail"]
    pages = api.get(f"/api/documents/{document.doc_id}/pages").json()
    assert [p["page"] for p in pages["pages"]] == list(range(1, document.page_count + 1))
    assert block.text in pages["pages"][block.page - 1]["text"]
    assert api.get("/api/documents/nope/pages").status_code == 404
