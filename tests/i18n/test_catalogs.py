"""No message is left untranslated: whatever the project's makemessages finds in the templates,
the Python code and the rules engine must be in each committed catalog, translated and not
fuzzy, and the compiled catalog must say the same as the one it was compiled from."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from tests.i18n.conftest import LANGUAGES

LOCALE = Path(settings.BASE_DIR) / "locale"

Key = tuple[str, str]


def needs_gettext() -> None:
    if shutil.which("xgettext") is None or shutil.which("msgfmt") is None:
        pytest.fail(
            "GNU gettext is not installed (apt-get install gettext): the catalogs cannot be "
            "checked against the code without it.",
            pytrace=False,
        )


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[Key, polib.POEntry]:
    """Every message the project's makemessages extracts today. It runs on a copy of the code
    and the catalogs (makemessages writes into the catalogs beside the files it scans), so the
    committed ones are left as they are."""
    needs_gettext()
    base = Path(settings.BASE_DIR)
    project = tmp_path_factory.mktemp("project")
    unwanted = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("scorekeeper", "templates", "locale"):
        shutil.copytree(base / folder, project / folder, ignore=unwanted)
    with override_settings(LOCALE_PATHS=[project / "locale"]), _working_in(project):
        call_command("makemessages", locale=["es"], keep_pot=True, verbosity=0)
    template = polib.pofile(str(project / "locale" / "django.pot"))
    return {_key(entry): entry for entry in template if entry.msgid}


class _working_in:
    """makemessages scans the current folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __enter__(self) -> None:
        self.before = Path.cwd()
        os.chdir(self.folder)

    def __exit__(self, *exc: object) -> None:
        os.chdir(self.before)


def _key(entry: polib.POEntry | polib.MOEntry) -> Key:
    return (entry.msgctxt or "", entry.msgid)


def _catalog(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


def _translated(entry: polib.POEntry | polib.MOEntry) -> str | tuple[str, ...]:
    if entry.msgid_plural:
        return tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
    return entry.msgstr


def test_the_extraction_finds_the_pages_the_forms_and_the_engine(
    extracted: dict[Key, polib.POEntry],
) -> None:
    sources = {path.split("/")[0] for entry in extracted.values() for path, _ in entry.occurrences}
    engine = {
        entry.msgid
        for entry in extracted.values()
        if any(path.startswith("scorekeeper/rules/") for path, _ in entry.occurrences)
    }

    assert {"templates", "scorekeeper"} <= sources
    # a Says template, a finding's template and one marked with N_
    assert "{player} dominoed." in engine
    assert "{player} scored {points}, but the open ends can show at most {highest}." in engine
    assert "{side} scores {score}." in engine
    # nothing from the tests
    assert not any(
        path.startswith("tests/") for entry in extracted.values() for path, _ in entry.occurrences
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_extracted_message_is_translated_in_the_committed_catalog(
    language: str, extracted: dict[Key, polib.POEntry]
) -> None:
    catalog = {_key(entry): entry for entry in _catalog(language) if not entry.obsolete}

    missing = [key for key in extracted if key not in catalog]
    untranslated = [
        key for key in extracted if key in catalog and not all(_as_tuple(_translated(catalog[key])))
    ]
    fuzzy = [key for key in extracted if key in catalog and "fuzzy" in catalog[key].flags]

    assert missing == [], f"{language}: not in the catalog (run makemessages): {missing}"
    assert untranslated == [], f"{language}: no translation: {untranslated}"
    assert fuzzy == [], f"{language}: fuzzy, to be checked: {fuzzy}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_plural_has_every_form_the_language_needs(language: str) -> None:
    catalog = _catalog(language)
    forms = int(catalog.metadata["Plural-Forms"].split("nplurals=")[1].split(";")[0])

    for entry in catalog:
        if entry.msgid_plural and not entry.obsolete:
            assert len(entry.msgstr_plural) == forms, entry.msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_says_what_the_committed_one_says(language: str) -> None:
    written = {
        _key(entry): _translated(entry)
        for entry in _catalog(language)
        if entry.msgid and not entry.obsolete and "fuzzy" not in entry.flags
    }
    compiled = {
        _key(entry): _translated(entry)
        for entry in polib.mofile(str(LOCALE / language / "LC_MESSAGES" / "django.mo"))
        if entry.msgid
    }

    assert compiled == written


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_keeps_the_placeholders_of_its_message(language: str) -> None:
    """msgfmt checks the %(name)s and {name} placeholders, as compilemessages does."""
    needs_gettext()
    path = LOCALE / language / "LC_MESSAGES" / "django.po"

    checked = subprocess.run(
        ["msgfmt", "--check", "--output-file=/dev/null", str(path)],
        capture_output=True,
        text=True,
    )

    assert checked.returncode == 0, checked.stderr


def _as_tuple(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)
