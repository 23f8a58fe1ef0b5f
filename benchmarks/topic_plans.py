"""Topic reports a researcher would keep: grammatical sub-questions and findings about the topic.

1. Plans: every title of ../shared/data/titles-dev (with its variants that add words) and of the
   ingested ../shared/data/pdfs, used as a topic, and the report topics below are planned offline; each sub-question is printed and
   checked by general rules (``ungrammatical``): one "?" at the end, no doubled word, balanced
   brackets, no phrase ending on a determiner, a preposition, a conjunction or an adjective, no
   preposition opening what "about"/"for"/"of" asks about, no capitalised article mid-sentence.
2. Findings: offline reports on a few topics over the PDFs; every claim of a summary or a section is
   checked for being about its document rather than the topic (``meta_kind``: its layout, its
   authors' plans, its release, or commentary with no content), and printed with the kind.

    python benchmarks/topic_plans.py [--plans-only] [--data-dir DIR]   (DIR: an index of the PDFs to reuse)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from common import ROOT, WORK, save, shared_path

sys.path.insert(0, str(ROOT))

from config import EmbeddingSettings, Settings, StorageSettings  # noqa: E402
from corpus.library import Library  # noqa: E402
from graph.run import run_research  # noqa: E402
from strategies.offline.planning import plan_questions  # noqa: E402
from strategies.offline.strategy import OfflineStrategy  # noqa: E402

TOPICS = (
    "Small language models: synthetic training data, knowledge distillation and on-device inference efficiency",
    "Scientific paper reading tools: citation context, plain-language summaries and user studies",
    "Evaluating summaries: faithfulness, human judgement and long documents",
    "Corpora of scientific papers: PDF parsing, metadata and licences",
    "Summarising legal cases: granularity, datasets and annotation",
)

# -- sub-questions ----------------------------------------------------------------------------------

DANGLING = set(
    "a an the this that these those its their our his her of for in on at to with about by from into via and "
    "or but nor vs versus how what why when where whether which".split()
)
PREPOSITIONS = set("of for in on at to with about by from into via outside inside within without under over".split())
# Adjective endings, and the common nouns that end so.
ADJECTIVE = re.compile(r"[a-z]{3,}(?:al|ic|ive|ous|ful|able|ible|less|ary)$")
NOUNS_LIKE_ADJECTIVES = set(
    "proposal trial journal signal material interval potential total capital hospital portal manual festival "
    "rival topic logic music traffic graphic clinic metric epidemic republic objective alternative initiative "
    "archive narrative perspective incentive variable table cable library summary dictionary glossary "
    "vocabulary boundary salary anniversary diary commentary secretary summary itinerary".split()
)
# What the plan's templates put before the phrase a question asks about.
ASKED = re.compile(r"\b(?:about|for|of|regarding|to)\s+(\S+)")


def _last_words(question: str) -> list[str]:
    """The words that end a phrase: the last one, and each before a template's "of"/"for"/"about"."""
    words = re.findall(r"[\w'’-]+|[?]", question)
    ends = [words[i - 1] for i, w in enumerate(words) if w in ("of", "for", "about", "regarding", "?") and i > 0]
    return [w for w in ends if w not in ("say", "report", "findings", "note", "recommend")]


def ungrammatical(question: str) -> list[str]:
    """Why ``question`` does not read as a whole question (empty when it does)."""
    problems = []
    if not question.endswith("?") or question.count("?") != 1:
        problems.append("not one question mark at the end")
    words = re.findall(r"[\w'’-]+", question.lower())
    if any(a == b for a, b in zip(words, words[1:], strict=False)):
        problems.append("doubled word")
    if question.count("(") != question.count(")") or question.count("“") != question.count("”"):
        problems.append("unbalanced brackets or quotes")
    for word in _last_words(question):
        lower = word.lower()
        # A capitalised word in a title is a name or a title's noun ("Dense Passage Retrieval").
        if lower in DANGLING or (word.islower() and ADJECTIVE.match(word) and word not in NOUNS_LIKE_ADJECTIVES):
            problems.append(f"phrase ends on '{word}'")
    for asked in ASKED.findall(question):
        if asked.lower() in PREPOSITIONS:
            problems.append(f"asks about a prepositional phrase ('{asked} …')")
    if re.search(r"(?<=\w )(?:A|An|The) [a-z]", question):
        problems.append("capitalised article mid-sentence")
    return problems


def titles(library: Library) -> list[str]:
    truth = json.loads((shared_path("titles-dev") / "truth.json").read_text(encoding="utf-8"))
    found = [d["title"] for d in truth]
    for d in truth:  # a variant with more words (a subtitle, a company's name) is a topic of its own
        found += [v for v in d.get("title_variants", []) if len(v.split()) > len(d["title"].split())]
    found += [r.title for r in library.registry.documents()]
    return list(dict.fromkeys([*found, *TOPICS]))


def check_plans(topics: list[str]) -> dict:
    bad = 0
    for topic in topics:
        print(f"## {topic}")
        for q in plan_questions(topic, False, []):
            problems = ungrammatical(q.question)
            bad += bool(problems)
            print(f"   {'✗' if problems else ' '} {q.question}" + (f"  <- {'; '.join(problems)}" if problems else ""))
    print(f"\n{len(topics)} titles: {bad} ungrammatical sub-question(s)")
    return {"titles": len(topics), "ungrammatical_sub_questions": bad}


# -- findings ---------------------------------------------------------------------------------------

_PART = r"(?:(?:section|sec\.|chapter|appendix|table|figure|fig\.)\s*§?|§)\s*[\dA-Z][\d.]*\b"
META = {
    "layout": re.compile(
        rf"^\W*(?:in\s+|as\s+shown\s+in\s+)?{_PART},?\s+(?:we\s+)?(?:give|describe|present|discuss|detail|"
        r"outline|review|summari[sz]e|report|show|list|provide|introduce)s?\b(?!\s+that)"
        r"|^\W*(?:so|thus)\s+far,?\s+we\b"
        r"|\b(?:rest|remainder)\s+of\s+(?:this|the)\s+(?:paper|article|chapter|report)\b"
        r"|\b(?:organi[sz]ed|structured)\s+as\s+follows\b"
        rf"|\bwe\s+(?:\w+ly\s+|further\s+)?(?:give|describe|present|discuss|detail|outline|review|summari[sz]e|report|"
        r"comment)\b"
        rf"[^.]*\b(?:in|see)\s+{_PART}",
        re.I,
    ),
    "plans": re.compile(
        r"\bwe\s+(?:also\s+)?(?:will|shall|plan\s+to|intend\s+to|hope\s+to|would\s+like\s+to|leave|envision)\b"
        r"|\bfuture\s+(?:work|research|directions?)\b",
        re.I,
    ),
    "release": re.compile(
        r"\bwe\s+(?:also\s+)?(?:release|open-source|make\s+(?:\w+\s+){0,3}available)\b"
        r"|\b(?:publicly|freely|openly)\s+available\b|https?://|github\.com",
        re.I,
    ),
    "vague": re.compile(
        r"^\W*(?:recent|prior|previous|earlier|existing|related|other)\s+(?:works?|studies|research|papers|"
        r"literature|approaches)\s+(?!(?:\w+\s+){0,3}that\b)[^\d]*$",
        re.I,
    ),
}


def meta_kind(text: str) -> str | None:
    """The way ``text`` is about its document rather than the topic, or None."""
    # A value outside a reference to a part ("Table 3 shows 91.2 F1") is a finding about the topic.
    valued = re.search(r"\d", re.sub(_PART, "", text, flags=re.I))
    for kind, pattern in META.items():
        if pattern.search(text) and not (kind == "layout" and valued):
            return kind
    return None


def check_findings(library: Library, strategy: OfflineStrategy) -> dict:
    meta = 0
    claims = 0
    for topic in TOPICS:
        report = run_research(library, strategy, topic).report
        print(f"\n## {topic}\n> {report.header_lines()[1]}")
        for part, claim in report.parts():
            if part == "Where sources disagree":
                continue
            claims += 1
            kind = meta_kind(claim.text)
            meta += kind is not None
            mark = f"✗ {kind}" if kind else "  "
            print(f"   {mark:9} [{part[:40]}] {' '.join(claim.text.split())[:160]}")
    print(f"\n{len(TOPICS)} reports: {meta} of {claims} findings are about their document, not the topic")
    return {"reports": len(TOPICS), "findings": claims, "meta_findings": meta}


def main() -> None:
    args = sys.argv[1:]
    data = Path(args[args.index("--data-dir") + 1]) if "--data-dir" in args else WORK / "pdfs"
    settings = Settings(
        storage=StorageSettings(data_dir=data), embeddings=EmbeddingSettings(models_path=data / "models")
    )
    with Library(settings) as library:
        library.ingest([shared_path("pdfs")])
        figures = check_plans(titles(library))
        if "--plans-only" not in args:
            figures |= check_findings(library, OfflineStrategy(library.embedder))
    print(f"saved to {save('topic_plans', figures)}")


if __name__ == "__main__":
    main()
