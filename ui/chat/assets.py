"""The research chat's stylesheet, its icon and its one piece of page script (the citation-click bridge)."""

from __future__ import annotations

import json

from ui.chat.report_html import CITE_PREFIX

CSS = """
.prp-banner { display: flex; flex-wrap: wrap; gap: .6rem; align-items: baseline; padding: .2rem 0 .4rem; }
.prp-banner .prp-name { font-size: 1.35rem; font-weight: 700; }
.prp-pill { border-radius: 999px; padding: .15rem .7rem; font-size: .85rem; border: 1px solid #c8ccd2; }
.prp-busy { background: #fff6e0; border-color: #e0b44c; }
.prp-mode-offline { background: #e8f3ec; border-color: #8cc5a0; color: #185c30; font-weight: 600; }
.prp-mode-llm { background: #e9effb; border-color: #91a9dc; color: #1c3f86; font-weight: 600; }
.prp-report h1 { font-size: 1.3rem; margin: .2rem 0 .5rem; }
.prp-report h2 { font-size: 1.1rem; margin: .9rem 0 .3rem; }
.prp-report h3 { font-size: 1rem; margin: .6rem 0 .2rem; }
.prp-report blockquote { margin: .3rem 0; padding-left: .7rem; border-left: 3px solid #b8c0cc; color: #4a5562; font-size: .92rem; }
a.prp-cite { display: inline-block; padding: 0 .22rem; margin: 0 .05rem; border-radius: 4px; background: #fff1c2;
  color: #7a3b00 !important; font-weight: 700; font-size: .85em; text-decoration: none !important; cursor: pointer;
  border: 1px solid #f0c24b; line-height: 1.25; }
a.prp-cite:hover { background: #ffd966; }
.prp-steps { font-family: ui-monospace, Consolas, monospace; font-size: .8rem; line-height: 1.35; }
.prp-steps .prp-node { color: #6b5bd2; font-weight: 600; }
.prp-steps .prp-error { color: #b3261e; font-weight: 600; }
.prp-ev-head { padding: .4rem .2rem; }
.prp-ev-title { font-size: 1.05rem; font-weight: 700; }
.prp-ev-num { color: #7a3b00; background: #fff1c2; border: 1px solid #f0c24b; border-radius: 4px; padding: 0 .25rem; }
.prp-ev-facts { font-size: .85rem; color: #4a5562; margin-top: .2rem; }
.prp-passage { max-height: 340px; overflow-y: auto; }
.prp-block { white-space: pre-wrap; padding: .45rem .6rem; margin: .3rem 0; border-radius: 6px; font-size: .9rem; line-height: 1.45; }
.prp-context { color: #68707a; background: #f6f7f9; }
.prp-cited { background: #fffaf0; border: 1px solid #f0c24b; color: #1d232b; }
.prp-cited mark { background: #ffd54a; color: #000; padding: 0 .05rem; border-radius: 2px; }
.prp-block-label { font-size: .72rem; color: #8a6d1e; margin-bottom: .15rem; font-family: ui-monospace, monospace; }
.prp-note { color: #5d6670; font-size: .85rem; }
.prp-cards { font-size: .85rem; }
.prp-finding { margin: .4rem 0; }
.prp-finding summary { cursor: pointer; }
.prp-status { font-size: .75rem; margin-left: .4rem; padding: 0 .4rem; border-radius: 999px; background: #eef0f3; }
.prp-gap { background: #fde8e6; color: #8c1d18; }
.prp-answered_after_retry { background: #fff3d6; }
.prp-disputed { background: #efe6fb; color: #4b2a7a; }
.prp-queries { color: #68707a; font-size: .78rem; margin: .15rem 0 .3rem; }
.prp-card { border: 1px solid #dde1e6; border-radius: 6px; padding: .35rem .5rem; margin: .3rem 0; }
.prp-card-active { border: 2px solid #e08a00; background: #fffaf0; }
.prp-card-head { display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
.prp-rank { font-weight: 700; } .prp-score { font-family: ui-monospace, monospace; color: #3b5b9a; }
.prp-doc { font-weight: 600; } .prp-where { color: #68707a; }
.prp-badge { background: #fff1c2; border: 1px solid #f0c24b; border-radius: 4px; padding: 0 .2rem; font-weight: 700; color: #7a3b00; }
.prp-snippet { color: #2e3640; margin-top: .15rem; }
.prp-log p { margin: .15rem 0; }
.prp-ok { color: #185c30; } .prp-bad { color: #b3261e; }
/* Gradio draws a remove button on each row of a multi-file File even when it is not interactive:
   a download list has nothing to remove. */
#prp-exports .label-clear-button { display: none; }
/* Its scroll-to-bottom button sits over the report's last lines: the chat scrolls by itself. */
#prp-chat .scroll-down-button-container { display: none; }
/* Table headers break between words, never inside one ("Pages", not "Page / s"). */
#prp-library-table th .header, #prp-threads-table th .header { word-break: normal; overflow-wrap: normal; }
/* A table longer than its box shows its scroll bar, not a clean cut after the last row that fits. */
#prp-library-table .virtual-table-viewport, #prp-threads-table .virtual-table-viewport { scrollbar-width: auto; scrollbar-color: #a9b0b8 #eef0f3; }
"""

#: The tab's icon (served at ``/favicon.ico``, where browsers ask for it): a page with a marked line.
FAVICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect x="5" y="2" width="22" height="28" rx="3" fill="#fff" stroke="#e0701a" stroke-width="2.5"/>'
    '<rect x="9" y="8" width="14" height="2.5" fill="#8a94a0"/>'
    '<rect x="8" y="14" width="16" height="5" rx="1" fill="#ffd54a" stroke="#e0701a" stroke-width="1.5"/>'
    '<rect x="9" y="23" width="11" height="2.5" fill="#8a94a0"/></svg>'
)

#: Installed by the evidence panel's bridge component (``gr.HTML(js_on_load=...)``). One capturing
#: listener on the document turns a click on any citation marker, wherever the chat renders it,
#: into that component's ``click`` event carrying the marker's "<thread id>:<n>". The latest
#: ``trigger`` is kept on ``window`` because the component may mount again.
CITATION_BRIDGE_JS = (
    f"const prpCitePrefix = {json.dumps(CITE_PREFIX)};"
    + """
window.prpCiteTrigger = trigger;
if (!window.prpCiteListening) {
  window.prpCiteListening = true;
  document.addEventListener('click', function (event) {
    const link = event.target && event.target.closest ? event.target.closest('a[href*="' + prpCitePrefix + '"]') : null;
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    const ref = decodeURIComponent(link.getAttribute('href').split(prpCitePrefix)[1] || '');
    if (ref && window.prpCiteTrigger) window.prpCiteTrigger('click', {cite: ref});
  }, true);
}
"""
)
