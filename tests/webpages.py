"""A made-up product's documentation website, as a scraper saves it: every page repeats the site's
title, navigation menu, "Documentation / User Guide / <Page>" breadcrumbs, a cookie banner and a
footer around a little real content.

``write_site(folder)`` writes the pages and returns their paths in navigation order; tests that need
web-style boilerplate (ingest, search, citations) reuse it. Everything sits in one plain ``<div>``, as
on many scraped sites, so the HTML extractor keeps the boilerplate and the corpus has to find it.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

PRODUCT = "Acme Router"
COMPANY = "Acme Networks, Inc."
BREADCRUMB = "Documentation / User Guide / {page}"
COOKIE_BANNER = (
    "We use cookies to give you the best experience on our website. By continuing to browse the "
    "documentation you agree to our use of cookies. Read our Cookie Policy to learn more."
)
FOOTER = f"© 2024 {COMPANY} All rights reserved."
FOOTER_LINKS = "Privacy Policy | Terms of Use | Contact Sales | Status"
FEEDBACK = "Was this page helpful? Let us know at docs-feedback@acme.example."

OVERVIEW_ANSWER = (
    "Acme Router is a programmable HTTP request router for small data centres: it receives every request "
    "at the network edge and forwards it to a pool of backend servers chosen by routing rules."
)
DEFAULT_TIER = "By default all requests are routed to the Standard tier."

# Page name -> its real content: paragraphs, and "## " subheadings.
PAGES: dict[str, list[str]] = {
    "Overview": [
        OVERVIEW_ANSWER,
        "## Key features",
        "Rules are written in YAML, checked before they are applied and reloaded without dropping "
        "connections, so operators can change routing during business hours.",
        "The router runs as a single static binary on Linux and needs no external database.",
    ],
    "Installation": [
        "Download the package for your distribution from the release page and install it with the "
        "system package manager; the service starts automatically after installation.",
        "The installer creates the configuration directory /etc/acme-router and a dedicated user "
        "account that owns the log files.",
    ],
    "Quick Start": [
        "Create a file named routes.yaml with one backend pool and one rule that matches every path, "
        "then run the validate command to check it.",
        "Send a test request with curl to port 8080 and look for the X-Acme-Pool response header, which "
        "names the pool that served the request.",
    ],
    "Configuration": [
        "The main configuration file sets listening ports, worker threads, timeouts and the location "
        "of the routing rules.",
        "Every setting can be overridden by an environment variable whose name starts with ACME_, which "
        "is convenient in containers.",
    ],
    "Routing Rules": [
        "A rule matches requests by host name, path prefix, header value or client network and sends "
        "them to a named backend pool.",
        "Rules are evaluated from top to bottom and the first matching rule wins; a request that "
        "matches no rule receives a 404 response.",
    ],
    "Service Tiers": [
        "Backend pools are grouped into three service tiers, Economy, Standard and Premium, which differ "
        "in timeouts, retry budgets and queue priority.",
        "## Choosing a tier",
        DEFAULT_TIER + " A rule can move matching requests to the Premium tier with the tier option.",
    ],
    "Load Balancing": [
        "Within a pool, requests are spread with weighted round robin; least-connections balancing can "
        "be selected per pool.",
        "Sticky sessions keep a client on the same server by hashing a cookie or the client address.",
    ],
    "Health Checks": [
        "Each backend server is probed every five seconds with an HTTP request to its health path.",
        "A server that fails three probes in a row is taken out of rotation until two probes succeed again.",
    ],
    "TLS Certificates": [
        "The router terminates TLS with certificates loaded from the certificate directory and reloads "
        "them when files change.",
        "Certificates can also be requested automatically from an ACME certificate authority such as Let's Encrypt.",
    ],
    "Monitoring": [
        "Metrics are exported in Prometheus format on the admin port, including request counts, latency "
        "histograms and pool health.",
        "Access logs are written as JSON lines and can be shipped to any log collector.",
    ],
    "Troubleshooting": [
        "If requests time out, check that the backend pool has at least one healthy server and that the "
        "tier timeout is longer than the backend's response time.",
        "Run the router with the debug flag to log which rule matched each request.",
    ],
    "Release Notes": [
        "Version 3.2 adds per-rule rate limits and a dry-run mode for new routing rules.",
        "Version 3.1 introduced the Premium tier and HTTP/2 support towards backend servers.",
    ],
}

NAV = ["Home", "Documentation", "Pricing", "Blog", "Support"]


def slug(page: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", page.lower()).strip("-")


def page_html(page: str, paragraphs: list[str]) -> str:
    e = html.escape
    menu = "\n".join(f"      <li>{e(p)}</li>" for p in PAGES)
    body = "\n".join(f"    <h2>{e(p[3:])}</h2>" if p.startswith("## ") else f"    <p>{e(p)}</p>" for p in paragraphs)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{e(page)} - {PRODUCT}</title>
  <meta property="og:title" content="{e(page)} - {PRODUCT}">
  <meta property="og:site_name" content="{PRODUCT}">
</head>
<body>
  <div class="wrapper">
    <p>{e(COOKIE_BANNER)}</p>
    <p>Accept all cookies</p>
    <h2>{PRODUCT}</h2>
    <p>{" | ".join(NAV)}</p>
    <ul>
{menu}
    </ul>
    <p>{e(BREADCRUMB.format(page=page))}</p>
    <h1>{e(page)}</h1>
{body}
    <p>{e(FEEDBACK)}</p>
    <p>{e(FOOTER)}</p>
    <p>{e(FOOTER_LINKS)}</p>
  </div>
</body>
</html>
"""


def write_site(folder: Path, pages: list[str] | None = None) -> list[Path]:
    """Write the site's pages (all, or the named ones) into ``folder``; their paths in page order."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for page in pages or list(PAGES):
        path = folder / f"{slug(page)}.html"
        path.write_text(page_html(page, PAGES[page]), encoding="utf-8")
        paths.append(path)
    return paths


def write_crawled_markdown(folder: Path, pages: dict[str, tuple[str, str]], breadcrumb: str = "") -> Path:
    """The same product's pages as a crawler saves them in Markdown: a "Source:" and "Fetched-At:"
    header, every title ending "- Acme Router", an optional breadcrumb line, then the page's text.
    ``pages`` maps a URL slug to (title, text); returns ``folder``."""
    folder.mkdir()
    for page_slug, (title, text) in pages.items():
        trail = f"{breadcrumb}\n\n" if breadcrumb else ""
        (folder / f"docs__{page_slug}.md").write_text(
            f"Source: https://docs.acme.example/router/{page_slug}.html\n"
            "Fetched-At: 2026-01-02T10:00:00Z\n\n"
            f"# {title} - {PRODUCT}\n\n{trail}{text}\n"
        )
    return folder
