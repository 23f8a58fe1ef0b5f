"""Document-kind nouns and section names: what a text calls itself and its parts."""

from __future__ import annotations

# Nouns a researcher calls a document by.
# Source: hand-kept, general English: what researchers call their sources.
DOCUMENT_NOUNS = frozenset(
    """paper papers document documents study studies article articles report reports brief review
    source sources thesis book chapter survey memo guide one""".split()
)

# What a source is, beside a document: words that say what a phrase names, not what it is about.
# Source: hand-kept, general English: the document nouns and kinds of study.
SOURCE_NOUNS = DOCUMENT_NOUNS | frozenset("model models simulation experiment trial dataset authors".split())

# Source: hand-kept, general English: kinds of document and their parts.
DOCUMENT_NOUN_PATTERN = (
    r"(?:brief|paper|report|study|article|document|chapter|section|review|guide|page|thesis|work|note|"
    r"memo|survey|analysis|manuscript|book|essay|post|tutorial|appendix|proposal)"
)

# Source: the usual headings of a paper's or a report's findings, matched as parts of a section's name.
FINDING_SECTIONS = ("abstract", "summary", "result", "discussion", "conclusion", "finding", "key message")

# Source: the usual headings of a paper's method and back matter, matched as parts of a section's name.
METHOD_SECTIONS = (
    "method",
    "material",
    "instrument",
    "sampling",
    "construction",
    "measurement",
    "definition",
    "configuration",
    "study area",
    "study site",
    "contact",
    "acknowledg",
    "reference",
    "appendix",
)

# A part of a text as its authors point at it ("Table 2", "Sec. 3.1", "Appendix B", "§4"), or as a converted
# paper's placeholder names it ("Table TABREF3"): where a value stands, not a value.
# Source: hand-kept, the parts of papers and reports.
TEXT_PART = (
    r"(?:(?:table|tab\.|figure|fig\.|section|sec\.|appendix|chapter|equation|eq\.|algorithm|listing|footnote)\s*§?|§)"
    r"\s*(?:[A-Z]+REF\d+|[\dA-Z][\d.]*[a-z]?)\b"
)
# A converted paper's placeholder for a citation, a table, a figure, a section or a formula (QASPER's
# S2ORC-derived text: "BIBREF10", "TABREF3", "INLINEFORM0").
# Source: the S2ORC conversion's marker names.
PLACEHOLDER = r"\b(?:BIBREF|TABREF|FIGREF|SECREF|INLINEFORM|DISPLAYFORM)\d+\b"
