"""A made-up library of look-alike records, generated at run time: for each kind of identifier (DOI,
ISBN, SKU, phone number, hex id, date, invoice number) ``PER_KIND`` documents written from one
template whose identifiers differ by only a digit or two, so the dense model sees the documents as
one and BM25 tells them apart by a single token: ties in a hybrid ranking are real, and only the
exact identifier can break them. Used by ``tests/test_identifier_lookups.py`` and
``tests/test_identifier_answers.py`` (issue 48).

``invoice_ledger`` adds a table of look-alike invoices, each a row. Each record says how a user would
look it up: the identifier as the document writes it, and as a
user might type it instead (spaces for hyphens, dots dropped or added) where the kind allows it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

PER_KIND = 12
KINDS = ("doi", "isbn", "sku", "phone", "hex", "date", "invoice")


@dataclass(frozen=True)
class IdentifierRecord:
    kind: str
    file_name: str
    identifier: str  # as the document writes it
    typed: str  # as a user might type it (another spelling of the same identifier)
    line: str  # the document's line holding the identifier


def _vary(base: str, rng: random.Random, taken: set[str], valid: Callable[[str], bool]) -> str:
    """``base`` with one or two of its digits changed, ``valid`` and not yet in ``taken``."""
    positions = [i for i, c in enumerate(base) if c.isdigit()]
    while True:
        chars = list(base)
        for i in rng.sample(positions, rng.choice((1, 2))):
            chars[i] = rng.choice("0123456789")
        variant = "".join(chars)
        if variant not in taken and valid(variant):
            taken.add(variant)
            return variant


def _isbn13(first12: str) -> str:
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(first12))
    return first12 + str((10 - total % 10) % 10)


# Each kind: a base identifier (digits to vary), how a document writes it and how a user may type it.
def _doi(core: str) -> tuple[str, str]:
    doi = f"10.2377/j.envres.2019.{core}"
    return doi, doi.upper()


def _isbn(core: str) -> tuple[str, str]:
    isbn = _isbn13(f"978186197{core}")
    written = f"{isbn[:3]}-{isbn[3]}-{isbn[4:9]}-{isbn[9:12]}-{isbn[12]}"
    return written, written.replace("-", " ")


def _sku(core: str) -> tuple[str, str]:
    return f"GRM-{core}-BK", f"GRM {core} BK"


def _phone(core: str) -> tuple[str, str]:
    return f"+1 (415) 555-{core}", f"+1 415 555 {core}"


def _hex(core: str) -> tuple[str, str]:
    return f"0x7f3a{core}e1", f"0x7F3A{core.upper()}E1"


def _date(core: str) -> tuple[str, str]:
    written = f"20{core[:2]}-{core[2:4]}-{core[4:]}"
    return written, written.replace("-", ".")


def _real_date(core: str) -> bool:
    try:
        date(2000 + int(core[:2]), int(core[2:4]), int(core[4:]))
    except ValueError:
        return False
    return True


def _invoice(core: str) -> tuple[str, str]:
    return core, core


_KINDS = {
    "doi": ("385129", _doi),
    "isbn": ("271", _isbn),
    "sku": ("48213", _sku),
    "phone": ("0142", _phone),
    "hex": ("9c2d", _hex),
    "date": ("210314", _date),
    "invoice": ("1081", _invoice),
}

_SITES = ["Harborview", "Riverton", "Eastfield", "Millbrook", "Northgate", "Lakeside"]


def _document(kind: str, identifier: str, index: int, rng: random.Random) -> tuple[str, str]:
    """The text of one record and its line holding ``identifier``."""
    site = _SITES[index % len(_SITES)]
    if kind == "doi":
        line = f"Cite this dataset as: Green roof runoff measurements, {site} (2019), https://doi.org/{identifier}"
        return f"Runoff dataset record\n\n{line}\n\nThe dataset holds runoff measurements from test roofs.\n", line
    if kind == "isbn":
        line = f"ISBN {identifier} (paperback), first edition, printed in {site}."
        return f"Book catalogue entry\n\nTitle: Planting Guide for Extensive Green Roofs\n\n{line}\n", line
    if kind == "sku":
        line = f"Item {identifier}: sedum mat, 1 square metre, stocked at the {site} depot."
        return f"Stock sheet\n\n{line}\n\nSedum mats are delivered rolled on pallets.\n", line
    if kind == "phone":
        line = f"Call the site office on {identifier} for access to the roof."
        return f"Contact card, {site} green roof\n\n{line}\n\nAccess is by appointment only.\n", line
    if kind == "hex":
        line = f"Sensor firmware build {identifier} was installed on the soil moisture logger."
        return f"Sensor log, {site}\n\n{line}\n\nThe logger records substrate moisture hourly.\n", line
    if kind == "date":
        line = f"The inspection of the {site} roof took place on {identifier}."
        return f"Inspection record\n\n{line}\n\nThe inspector checked drains, edges and vegetation cover.\n", line
    amount = f"{rng.randint(1000, 9999)}.{rng.randint(10, 99)}"
    line = f"Amount due: {amount} EUR"
    text = f"Invoice {identifier}\n{line}\nPayable within 30 days to {site} Roofing Ltd.\n"
    return text, f"Invoice {identifier} {line}"


def invoice_ledger(folder: Path, seed: int = 48) -> list[IdentifierRecord]:
    """A ledger (Markdown) whose table rows are invoices ``PER_KIND`` look-alike numbers apart from
    the records' ("| 2310 | 2024-03-14 | Harborview Roofing | 5179.25 EUR |"), and its records: a row
    states its amount only under the table's header ("Amount due")."""
    rng = random.Random(seed)
    taken = {"2310"}
    numbers = ["2310"] + [_vary("2310", rng, taken, lambda core: not core.startswith("0")) for _ in range(PER_KIND - 1)]
    rows = ["| Invoice | Issued | Customer | Amount due |", "|---|---|---|---|"]
    records = []
    for index, number in enumerate(numbers):
        row = (
            f"| {number} | 2024-03-{rng.randint(10, 28)} | {_SITES[index % len(_SITES)]} Roofing | "
            f"{rng.randint(1000, 9999)}.{rng.randint(10, 99)} EUR |"
        )
        rows.append(row)
        records.append(IdentifierRecord("ledger", "invoice_ledger.md", number, number, row.strip("| ")))
    intro = "# Invoice ledger, March 2024\n\nThe ledger lists the invoices issued in March.\n\n"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "invoice_ledger.md").write_text(intro + "\n".join(rows) + "\n", encoding="utf-8")
    return records


def identifier_corpus(folder: Path, seed: int = 48) -> list[IdentifierRecord]:
    """Write the library's documents into ``folder`` (``PER_KIND`` per kind, invoice 1081 among
    them, holding "Invoice 1081 Amount due: 5405.29 EUR") and return their records."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    records: list[IdentifierRecord] = []
    for kind in KINDS:
        base, spell = _KINDS[kind]
        taken = {base}
        valid = _real_date if kind == "date" else lambda core: not core.startswith("0")
        cores = [base] + [_vary(base, rng, taken, valid) for _ in range(PER_KIND - 1)]
        for index, core in enumerate(cores):
            identifier, typed = spell(core)
            text, line = _document(kind, identifier, index, rng)
            if kind == "invoice" and core == base:
                text = text.replace(line.removeprefix(f"Invoice {identifier} "), "Amount due: 5405.29 EUR")
                line = f"Invoice {identifier} Amount due: 5405.29 EUR"
            name = f"{kind}_{index + 1:02d}.txt"
            (folder / name).write_text(text, encoding="utf-8")
            records.append(IdentifierRecord(kind, name, identifier, typed, line))
    return records
