"""Authors as a reader names them in running text: "Halvorsen", "Halvorsen and Alcaraz",
"Halvorsen et al." (three or more, short) or "Halvorsen, Alcaraz and Venkataraman" (in full), by
family name (``corpus.loaders.authors.family_name``)."""

from __future__ import annotations

from corpus.loaders.authors import family_name, family_names


def short_authors(authors: list[str]) -> str:
    """The authors in a table cell or an author-year citation; "" when there are none."""
    families = family_names(authors)
    if len(families) >= 3:
        return f"{families[0]} et al."
    return " and ".join(families)


def inverted_parts(name: str) -> list[str]:
    """ "Given Family" as reference managers order it: ["Family", "Given"], ["de la Cruz", "Ana"],
    ["Roe", "Jr.", "John"] (the generational suffix between); [name] for a single word."""
    words = name.split()
    family = family_name(name).split()
    for start in range(len(words) - len(family), -1, -1):
        if words[start : start + len(family)] == family:
            given, suffix = words[:start], words[start + len(family) :]
            return [" ".join(family), *([" ".join(suffix)] if suffix else []), *([" ".join(given)] if given else [])]
    return [" ".join(words)]


def all_authors(authors: list[str]) -> str:
    """Every author's family name, the last joined with "and"; "" when there are none."""
    families = family_names(authors)
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
