"""Authors as a reader names them in running text: "Halvorsen", "Halvorsen and Alcaraz",
"Halvorsen et al." (three or more, short) or "Halvorsen, Alcaraz and Venkataraman" (in full), by
family name; and a stored name's parts (family, given, suffix, or one literal corporate name), as
the exports write them.

A name is stored as one string. Most read "Given Family" ("Diego de las Casas", "John Roe Jr."),
whose parts follow from the words (``corpus.loaders.authors.family_name``); a name whose parts those
rules would split elsewhere keeps the split its source gave in BibTeX's order, "Family, Given" or
"Family, Suffix, Given" ("Teodoro Mendes, Caio César"); a corporate name is one literal: braced
("{Hugging Face}") or holding a word that names an organisation ("Gemma Team", "Microsoft Research").
"""

from __future__ import annotations

from dataclasses import dataclass

from corpus.loaders.authors import NON_NAME_WORDS, family_name


@dataclass(frozen=True)
class NameParts:
    family: str
    given: str = ""
    suffix: str = ""
    literal: bool = False  # a corporate name, never split ("Gemma Team")

    def inverted(self) -> list[str]:
        """BibTeX's and RIS's order: ["Family", "Given"], ["Roe", "Jr.", "John"], ["Gemma Team"]."""
        return [p for p in (self.family, self.suffix, self.given) if p]


def is_braced(name: str) -> bool:
    """Whether one pair of braces encloses the whole of ``name`` ("{Gemma Team}", not "{\\O}ster")."""
    if not (name.startswith("{") and name.endswith("}")):
        return False
    depth = 0
    for i, ch in enumerate(name):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return i == len(name) - 1
    return False


# Words of organisations' names beside those that keep a text out of personal names at extraction.
_ORGANISATION_WORDS = NON_NAME_WORDS | frozenset(
    """organization organisation organizations organisations consortium collaboration initiative project
    alliance union commission authority bureau institution partnership panel forum federation""".split()
)


def is_corporate(name: str) -> bool:
    """A name of an organisation rather than a person: braced, or holding an institution's word."""
    return is_braced(name) or any(w.lower().strip(".,()") in _ORGANISATION_WORDS for w in name.split())


def name_parts(name: str) -> NameParts:
    """The parts of a stored name (see the module's docstring)."""
    name = " ".join(name.split())
    if is_braced(name):
        return NameParts(family=name[1:-1].strip(), literal=True)
    if "," in name:
        parts = [p.strip() for p in name.split(",")]
        if len(parts) == 2:
            return NameParts(family=parts[0], given=parts[1])
        return NameParts(family=parts[0], suffix=parts[1], given=", ".join(parts[2:]))
    if is_corporate(name):
        return NameParts(family=name, literal=True)
    words = name.split()
    family = family_name(name).split()
    for start in range(len(words) - len(family), -1, -1):
        if words[start : start + len(family)] == family:
            given, suffix = words[:start], words[start + len(family) :]
            return NameParts(" ".join(family), " ".join(given), " ".join(suffix))
    return NameParts(family=name)


def stored_name(family: str, given: str = "", suffix: str = "", literal: bool = False) -> str:
    """The string a name with these parts is stored as: "Given Family Suffix" when that reads back
    as the same parts, else "Family, Suffix, Given" (a literal: as written, braced unless it reads
    as an organisation's name anyway)."""
    family, given, suffix = (" ".join(p.split()) for p in (family, given, suffix))
    if literal:
        return family if not family or is_corporate(family) else f"{{{family}}}"
    if not (given or suffix):
        # Words alone would be read as a given name and a family name.
        return family if len(family.split()) <= 1 else f"{{{family}}}"
    plain = " ".join(p for p in (given, family, suffix) if p)
    if name_parts(plain) == NameParts(family, given, suffix):
        return plain
    return ", ".join([family, suffix, given] if suffix else [family, given])


def display_name(name: str) -> str:
    """A stored name as a reader sees it: a literal without its braces."""
    parts = name_parts(name)
    return parts.family if parts.literal else " ".join(name.split())


def short_authors(authors: list[str]) -> str:
    """The authors in a table cell or an author-year citation; "" when there are none."""
    families = [name_parts(a).family for a in authors]
    if len(families) >= 3:
        return f"{families[0]} et al."
    return " and ".join(families)


def inverted_parts(name: str) -> list[str]:
    """ "Given Family" as reference managers order it: ["Family", "Given"], ["de la Cruz", "Ana"],
    ["Roe", "Jr.", "John"] (the generational suffix between); [name] for a single word or a literal."""
    return name_parts(name).inverted()


def all_authors(authors: list[str]) -> str:
    """Every author's family name, the last joined with "and"; "" when there are none."""
    families = [name_parts(a).family for a in authors]
    if len(families) <= 2:
        return " and ".join(families)
    return f"{', '.join(families[:-1])} and {families[-1]}"


def byline(authors: list[str], year: int | None) -> str:
    """ "Halvorsen et al. (2019)", "Halvorsen and Alcaraz" without a year; "" without authors (a year
    alone names no one)."""
    names = short_authors(authors)
    if not names:
        return ""
    return f"{names} ({year})" if year else names
