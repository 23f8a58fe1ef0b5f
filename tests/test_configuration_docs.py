"""docs/configuration.md's settings table is the one ``Settings`` makes of itself (``python -m config.docs``)."""

from __future__ import annotations

from config import Settings, docs


def test_the_settings_table_in_the_docs_is_the_generated_one():
    page = docs.PAGE.read_text(encoding="utf-8")
    assert docs.page_with_table(page) == page, "docs/configuration.md is stale: run `python -m config.docs --write`"


def test_every_setting_has_its_variable_and_a_description():
    for section in Settings.model_fields.values():
        for name, field in section.default_factory.model_fields.items():
            assert field.validation_alias and field.description, name
