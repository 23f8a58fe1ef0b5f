"""LaTeX source (.tex) loader: pylatexenc's tolerant parser (already installed with bibtexparser, which
decodes BibTeX exports' LaTeX) gives the node tree; this module reads the document's structure from it.

``\\chapter`` to ``\\paragraph`` open sections; ``\\title``, ``\\author`` (split at ``\\and``, its
affiliation lines after ``\\\\`` and its ``\\thanks`` left out) and ``\\date`` fill the bibliographic
fields; the preamble and comments are no text. A citation stays in the sentence as its keys, "[smith2020,
jones2019]", the keys a BibTeX import of the same library names its entries by. A ``tabular`` is a table
block as every loader writes one (a cell per ``&``, a row per ``\\\\``, ``\\multicolumn`` written once over
its first column); ``\\footnote`` a footnote block after its paragraph; ``\\caption`` a caption;
``itemize``/``enumerate`` items list blocks; ``thebibliography``'s items references. Everything else is
turned into text by pylatexenc (accents, ``\\emph``, math as its Unicode approximation).
"""

from __future__ import annotations

import re

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, SpecialsTextSpec
from pylatexenc.latex2text import get_default_latex_context_db as text_context
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexNode,
    LatexSpecialsNode,
    LatexWalker,
    get_default_latex_context_db,
)
from pylatexenc.macrospec import LatexContextDb, MacroSpec, SpecialsSpec

from corpus.errors import LoadError
from corpus.loaders.authors import metadata_authors, split_names
from corpus.loaders.outline import Outline, table_text
from corpus.loaders.titles import clean_title
from corpus.models import Bibliography, BlockKind, LoadedDocument, TitleSource

_SECTION_LEVELS = {"part": 0, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4, "paragraph": 5}
_CITES = ("cite", "citep", "citet", "citealp", "citeauthor", "citeyear", "parencite", "textcite", "autocite")
_LISTS = frozenset({"itemize", "enumerate", "description"})
_TABULARS = frozenset({"tabular", "tabular*", "tabularx", "longtable", "tabulary"})
_DROPPED_ENVIRONMENTS = frozenset({"comment", "tikzpicture", "filecontents"})
_RULES = frozenset({"hline", "toprule", "midrule", "bottomrule", "cline", "cmidrule", "addlinespace"})
# Macros that say nothing a reader reads, with their arguments: parsed with their arguments so that
# these are not read as text.
_SILENT = ("label", "ref", "eqref", "autoref", "cref", "Cref", "includegraphics", "bibliographystyle", "bibliography")
# Macros that print furniture of their own ("\maketitle" prints the title again, "\today" the day it runs).
_FURNITURE = ("maketitle", "tableofcontents", "listoffigures", "listoftables", "today", "appendix")
# Macros whose argument is their text: pylatexenc's walker reads their argument and its text converter,
# which knows no text for them, dropped it ("a symbol like \mbox{\emph{itemnum}}" lost its word).
_KEPT = ("texttt", "textsf", "textup", "textmd", "textnormal", "mbox", "makebox", "fbox", "framebox", "verb")
# The TeX family's logos, which pylatexenc drops ("makes no difference to \LaTeX, but" lost its word).
_LOGOS = {"TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2e", "BibTeX": "BibTeX", "XeTeX": "XeTeX", "LuaTeX": "LuaTeX"}
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
ABSTRACT_LEVEL = 2
# pylatexenc's walker reads about 30 KB a second (pure Python, character by character): a paper's
# source takes a second or two, a larger file is refused by name rather than parsed for minutes (a
# book is usually split into \input files, each read on its own).
MAX_SOURCE_CHARS = 500_000


def load_latex(text: str) -> LoadedDocument:
    if len(text) > MAX_SOURCE_CHARS:
        raise LoadError(f"a LaTeX source of {len(text):,} characters, over the limit of {MAX_SOURCE_CHARS:,}")
    walker = LatexWalker(text, latex_context=_parse_context(), tolerant_parsing=True)
    try:
        nodes, _, _ = walker.get_latex_nodes()
    except RecursionError:
        raise LoadError("LaTeX nested too deeply to read") from None
    reader = _Reader()
    document = next((n for n in nodes if _is_env(n, "document")), None)
    if document is None:  # a chapter file \input by a main file: all of it is text
        reader.walk(nodes)
    else:
        reader.metadata(nodes)
        reader.walk(document.nodelist)
    reader.flush()
    title = clean_title(reader.title)
    date = _YEAR.search(reader.date)
    return LoadedDocument(
        title=title or None,
        title_source=TitleSource.PROPERTIES if title else None,
        year=int(date.group(1)) if date else None,
        bibliography=Bibliography(authors=reader.authors),
        blocks=reader.outline.blocks,
    )


def _parse_context() -> LatexContextDb:
    """pylatexenc's macros with the arguments of those it does not know. One category: the walker tests
    every category at every character for a special ("~", "&"), and the default's twenty made a 100 KB
    paper take seconds."""
    default = get_default_latex_context_db()
    ours = [MacroSpec(name, "*[[{") for name in _CITES] + [MacroSpec(name, "{") for name in _SILENT]
    ours += [MacroSpec("caption", "[{"), MacroSpec("multicolumn", "{{{"), MacroSpec("bibitem", "[{")]
    ours += [MacroSpec("thanks", "{"), MacroSpec("footnote", "[{"), MacroSpec("includegraphics", "[{")]
    ours += [MacroSpec("makebox", "[[{"), MacroSpec("framebox", "[[{")]
    names = {spec.macroname for spec in ours}
    db = LatexContextDb()
    db.add_context_category(
        "prp",
        macros=ours + [spec for spec in default.iter_macro_specs() if spec.macroname not in names],
        environments=list(default.iter_environment_specs()),
        specials=[*default.iter_specials_specs(), SpecialsSpec("`")],
    )
    return db


def _text_context():
    db = text_context()
    macros = [MacroTextSpec(name, simplify_repl=_citation) for name in _CITES]
    macros += [MacroTextSpec(name, "") for name in (*_SILENT, *_FURNITURE, "thanks", "footnote", "caption", "bibitem")]
    macros += [MacroTextSpec(name, simplify_repl=_last_argument) for name in _KEPT]
    macros += [MacroTextSpec(name, logo) for name, logo in _LOGOS.items()]
    # An opening single quote, `so', written as its closing one is: the text keeps apostrophes plain.
    db.add_context_category("prp", prepend=True, macros=macros, specials=[SpecialsTextSpec("`", "'")])
    return db


class _Converter(LatexNodes2Text):
    """pylatexenc's text, with a script longer than a character bracketed: ``x^{2n}`` is "x^(2n)", as a
    Word equation's is (``corpus.loaders.omml``), where pylatexenc wrote "x^2n", read as x²·n. In a
    formula ``x''`` is a double prime, not a closing quote."""

    def node_to_text(self, node: LatexNode, textcol: int = 0) -> str:
        state = node.parsing_state
        if state is None or not state.in_math_mode:
            return super().node_to_text(node, textcol=textcol)
        if isinstance(node, LatexSpecialsNode) and node.specials_chars == "''":
            return "''"
        text = super().node_to_text(node, textcol=textcol)
        if isinstance(node, LatexGroupNode) and node.pos and len(text.strip()) > 1 and state.s[node.pos - 1] in "^_":
            return f"({text.strip()})"
        return text


def _citation(node: LatexMacroNode, _converter: LatexNodes2Text | None = None) -> str:
    keys = _argument_source(node, -1)
    return f"[{', '.join(k.strip() for k in keys.split(',') if k.strip())}]" if keys else ""


def _last_argument(node: LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    """The text of a macro's last argument (pylatexenc passes its converter by this name)."""
    args = node.nodeargd.argnlist if node.nodeargd is not None else []
    return l2tobj.nodelist_to_text([args[-1]]) if args and args[-1] is not None else ""


def _argument_source(node: LatexMacroNode, index: int) -> str:
    args = node.nodeargd.argnlist if node.nodeargd is not None else []
    arg = args[index] if args and -len(args) <= index < len(args) else None
    if arg is None:
        return ""
    if isinstance(arg, LatexGroupNode):
        return "".join(n.latex_verbatim() for n in arg.nodelist)
    return arg.latex_verbatim()


def _is_env(node: LatexNode | None, *names: str) -> bool:
    return isinstance(node, LatexEnvironmentNode) and node.environmentname in names


class _Reader:
    """The blocks and bibliographic fields of one document, read node by node."""

    def __init__(self) -> None:
        self.outline = Outline()
        self.converter = _Converter(latex_context=_text_context(), math_mode="text", strict_latex_spaces=True)
        self.title = self.date = ""
        self.authors: list[str] = []
        self._parts: list[str] = []
        self._kind = BlockKind.PARAGRAPH
        self._footnotes: list[str] = []

    def to_text(self, nodes: list[LatexNode | None]) -> str:
        return " ".join(self.converter.nodelist_to_text([n for n in nodes if n is not None]).split())

    def argument(self, node: LatexMacroNode, index: int = -1) -> str:
        args = node.nodeargd.argnlist if node.nodeargd is not None else []
        arg = args[index] if args and -len(args) <= index < len(args) else None
        return self.to_text([arg]) if arg is not None else ""

    def flush(self, kind: BlockKind = BlockKind.PARAGRAPH) -> None:
        """End the block being read; what follows is a block of ``kind``."""
        self.outline.add(self._kind, " ".join("".join(self._parts).split()))
        for note in self._footnotes:
            self.outline.add(BlockKind.FOOTNOTE, note)
        self._parts, self._footnotes, self._kind = [], [], kind

    def metadata(self, nodes: list[LatexNode]) -> None:
        for node in nodes:
            if isinstance(node, LatexMacroNode):
                self.macro(node, preamble=True)

    def walk(self, nodes: list[LatexNode | None]) -> None:
        for node in nodes:
            if isinstance(node, LatexCharsNode):
                pieces = _PARAGRAPH_BREAK.split(node.chars)
                for i, piece in enumerate(pieces):
                    if i:
                        self.flush()
                    self._parts.append(piece)
            elif isinstance(node, LatexMacroNode):
                self.macro(node)
            elif isinstance(node, LatexEnvironmentNode):
                self.environment(node)
            elif isinstance(node, LatexGroupNode):
                self.walk(node.nodelist)
            elif isinstance(node, LatexSpecialsNode) and node.specials_chars == "&":
                self._parts.append(" ")
            elif node is not None and not isinstance(node, LatexCommentNode):
                self._parts.append(self.converter.nodelist_to_text([node]))

    def macro(self, node: LatexMacroNode, preamble: bool = False) -> None:
        name = node.macroname
        if name == "title":
            self.title = self.argument(node)
        elif name == "author":
            self.authors = _authors(_argument_source(node, -1))
        elif name == "date":
            self.date = self.argument(node)
        elif preamble:
            return
        elif name in _SECTION_LEVELS:
            self.flush()
            self.outline.heading(_SECTION_LEVELS[name], self.argument(node))
        elif name == "footnote":
            self._footnotes.append(self.argument(node))
        elif name == "caption":
            self.flush()
            self.outline.add(BlockKind.CAPTION, self.argument(node))
        elif name in ("item", "bibitem"):
            self.flush(BlockKind.LIST if name == "item" else BlockKind.REFERENCE)
            label = self.argument(node, 0) if name == "item" else f"[{_argument_source(node, -1).strip()}]"
            self._parts.append(f"{label} " if label else "")
        elif name == "par":
            self.flush()
        elif name == "\\":
            self._parts.append(" ")
        else:
            self._parts.append(self.converter.nodelist_to_text([node]))

    def environment(self, node: LatexEnvironmentNode) -> None:
        name = node.environmentname
        if name in _DROPPED_ENVIRONMENTS:
            return
        self.flush()
        if name in _TABULARS:
            self.outline.add(BlockKind.TABLE, table_text(self.table_rows(node.nodelist)))
        elif name == "abstract":
            self.outline.heading(ABSTRACT_LEVEL, "Abstract")
            self.walk(node.nodelist)
        elif name == "thebibliography":
            self.outline.heading(ABSTRACT_LEVEL, "References")
            self.walk(node.nodelist)
        else:  # lists, figures, quotes, math: their content in order, items and captions as blocks
            self.walk(node.nodelist)
        self.flush()

    def table_rows(self, nodes: list[LatexNode | None]) -> list[list[str]]:
        rows: list[list[str]] = [[]]
        cell: list[LatexNode] = []
        for node in nodes:
            if isinstance(node, LatexSpecialsNode) and node.specials_chars == "&":
                rows[-1].append(self.to_text(cell))
                cell = []
            elif isinstance(node, LatexMacroNode) and node.macroname == "\\":
                rows[-1].append(self.to_text(cell))
                rows.append([])
                cell = []
            elif isinstance(node, LatexMacroNode) and node.macroname == "multicolumn":
                span = _argument_source(node, 0).strip()
                cell.append(node.nodeargd.argnlist[-1])
                for _ in range(min(int(span), 100) - 1 if span.isdigit() else 0):
                    rows[-1].append(self.to_text(cell))
                    cell = []
            elif not (isinstance(node, LatexMacroNode) and node.macroname in _RULES):
                cell.append(node)
        rows[-1].append(self.to_text(cell))
        return rows


def _authors(source: str) -> list[str]:
    """The names in an ``\\author`` argument: one per ``\\and``, each its first line (the rest is an
    affiliation or an address), ``\\thanks`` and footnote marks left out."""
    names: list[str] = []
    converter = LatexNodes2Text(latex_context=_text_context())
    for part in re.split(r"\\and\b", source):
        first_line = re.split(r"\\\\|\\newline\b", part)[0]
        text = " ".join(converter.latex_to_text(first_line).split())
        names += metadata_authors(text) or split_names(text)
    return list(dict.fromkeys(names))
