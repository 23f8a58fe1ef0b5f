"""PDF loader: characters -> words -> lines -> blocks with page and bounding box, in reading order.

Written for research papers (one- and two-column, LaTeX or word processor) and read in two passes:

1. Per page, the only part that touches pdfminer: the page's characters and rules are read straight
   from pdfminer's layout objects with pdfplumber's coordinates (skipping ``page.chars``, which
   converts every glyph, path and image into a 25-key dict and costs more than the parsing itself).
   Rotated characters (the arXiv side stamp) are dropped after the year is read from them. Words are
   grouped with a gap tolerance relative to the font size, so TeX's tight spacing ("Kyle Lo") does not
   collapse into "KyleLo". Words are chained into *segments*: runs on one baseline with no gap wider
   than about one em, so a column gutter always separates segments. Tables are looked for only where
   black or grey horizontal rules are drawn: a table is a stack of rules of the same width (booktabs
   rules, or the borders of cell boxes joined up), unless its rows hold one cell of prose each.
2. For the whole document, in pure Python: running headers and footers (the same text at the same
   height on many pages) and bare page numbers are dropped; each page's column gutter is found (the
   widest strip near the middle that body-size text does not cross) and its segments are ordered:
   full-width strips top to bottom, and between two strips the left column before the right one.
   Segments become lines, lines become blocks at changes of font size, larger vertical gaps,
   first-line indents, and at the starts of captions, list items, footnotes and reference entries.
   Headings are recognised by style (bold, larger, another typeface) together with numbering
   ("3.2 Method") or a well-known section name, and set the section of the blocks that follow; the
   blocks after a "References" heading are references, up to an appendix heading.

A block's bounding box is the union of its words' boxes and its text is exactly those words, lines
joined with a space, or without the hyphen where a word was hyphenated at a line end. All orderings
are explicit, so the same file always gives the same blocks.

The package follows the two passes. Pass 1: ``page_objects`` (pdfminer's characters, rules and
shading), ``words`` (words, segments, rows), ``captions`` and ``tables`` (table detection),
``page_extraction`` (one page). Pass 2: ``headers_footers``, ``reading_order`` (columns, lines),
``doc_stats``, ``headings``, ``blocks``, ``dehyphenation`` (block text), ``metadata`` (title and
year), ``bibliography`` (authors, venue, DOI, arXiv id). ``document`` opens the file and runs both; ``elements`` holds the data classes they share.
"""

from corpus.loaders.pdf.document import load_pdf

__all__ = ["load_pdf"]
