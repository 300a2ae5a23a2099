"""Every page in en, af and fr (issue 14.9).

Three checks that fail as soon as one string slips through:
- a template holds visible English text (or a title/placeholder/aria-label) outside
  ``{% translate %}`` / ``{% blocktranslate %}``;
- a form label, help text or choice is a plain string (it can never be translated)
  or has no entry in the af or fr catalogue;
- a string marked for translation anywhere in the code has no af or fr translation
  (the catalogues are re-extracted from a copy of the sources, so a forgotten
  ``makemessages`` fails too), or the compiled ``.mo`` is older than its ``.po``.
"""

from __future__ import annotations

import gettext
import importlib
import inspect
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django import forms
from django.utils import translation
from django.utils.functional import Promise

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("af", "fr")
TEMPLATE_DIRS = ("templates", "league/templates", "matches/templates", "web/templates")
FORM_MODULES = ("league.forms", "league.event_forms", "matches.forms", "league.admin")
# Words that are the same in every language: names of things, not sentences.
PROPER_NAMES = {"Bokx", "RUGBY_Bokx", "Django", "Swagger", "Redoc", "iCalendar", "CSV", "JSON"}
WORD = re.compile(r"[A-Za-z][a-z]{2,}")
TRANSLATED_ATTRIBUTES = ("placeholder", "title", "alt", "aria-label")


def _without_template_code(source: str) -> str:
    """The template's HTML with every template construct replaced by a marker.

    Translated blocks disappear with the rest, so what is left with letters in it
    is text a visitor reads in English whatever their language.
    """
    source = re.sub(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", "", source, flags=re.S)
    source = re.sub(r"\{#.*?#\}", "", source, flags=re.S)
    source = re.sub(
        r"\{%\s*blocktrans(late)?\b.*?\{%\s*endblocktrans(late)?\s*%\}", "§", source, flags=re.S
    )
    source = re.sub(r"\{%.*?%\}|\{\{.*?\}\}", "§", source, flags=re.S)
    source = re.sub(r"<!--.*?-->", "", source, flags=re.S)
    return re.sub(r"<(script|style)\b.*?</\1>", "", source, flags=re.S | re.I)


def _english(text: str) -> bool:
    return any(word not in PROPER_NAMES for word in WORD.findall(text))


class _UntranslatedText(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            shown = name in TRANSLATED_ATTRIBUTES or (
                tag == "input" and name == "value" and values.get("type") in ("submit", "button")
            )
            if shown and value and _english(value):
                self.found.append((self.getpos()[0], f"{name}={value!r}"))

    def handle_data(self, data: str) -> None:
        if _english(data):
            self.found.append((self.getpos()[0], data.replace("§", " ").strip()[:70]))


def _templates() -> list[Path]:
    return sorted(path for folder in TEMPLATE_DIRS for path in (ROOT / folder).rglob("*.html"))


def test_templates_show_no_untranslated_text():
    untranslated = []
    for path in _templates():
        parser = _UntranslatedText()
        parser.feed(_without_template_code(path.read_text()))
        untranslated += [f"{path.relative_to(ROOT)}:{line}: {text}" for line, text in parser.found]
    assert not untranslated, "text outside {% translate %}:\n" + "\n".join(untranslated)


def test_the_scan_sees_untranslated_text():
    parser = _UntranslatedText()
    parser.feed(
        _without_template_code(
            '{% load i18n %}<h1>{% translate "Fixtures" %}</h1><p title="Next match">'
            "{% blocktranslate %}Round {{ n }}{% endblocktranslate %} Kick-off</p>"
        )
    )
    assert [text for _, text in parser.found] == ["title='Next match'", "Kick-off"]


def _catalogue(language: str) -> dict[str, str]:
    with open(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo", "rb") as compiled:
        return gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]


def _form_classes() -> list[type[forms.BaseForm]]:
    classes = []
    for module_name in FORM_MODULES:
        module = importlib.import_module(module_name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, forms.BaseForm) and value.__module__ == module_name:
                classes.append(value)
    return classes


def _texts_of(field: forms.Field) -> list[tuple[str, object]]:
    texts: list[tuple[str, object]] = [("label", field.label), ("help_text", field.help_text)]
    if isinstance(field, forms.ModelChoiceField):
        return texts  # its choices are rows (team names...), not words
    for value, label in getattr(field, "choices", ()) or ():
        if value not in ("", None) and not isinstance(label, (list, tuple)):
            texts.append((f"choice {value!r}", label))
    return texts


def _translated(text: Promise, language: str, catalogue: dict[str, str]) -> bool:
    """Whether ``text`` has a translation: in our catalogue, or Django's own (auth forms)."""
    args = getattr(text, "_args", ())
    while len(args) == 1 and isinstance(args[0], Promise):  # capfirst(verbose_name) and the like
        args = getattr(args[0], "_args", ())
    if len(args) == 1 and isinstance(args[0], str) and catalogue.get(args[0]):
        return True
    with translation.override("en"):
        english = str(text)
    with translation.override(language):
        return str(text) != english


def test_form_labels_help_and_choices_are_translated():
    catalogues = {language: _catalogue(language) for language in LANGUAGES}
    problems = []
    for form_class in _form_classes():
        for name, field in form_class.base_fields.items():
            if field.label is None and not isinstance(field.widget, forms.HiddenInput):
                # Django would show the field's name, in English, as its label.
                problems.append(f"{form_class.__name__}.{name}: no label")
            for what, text in _texts_of(field):
                if not text or not _english(str(text)):
                    continue
                where = f"{form_class.__name__}.{name} {what} {str(text)!r}"
                if not isinstance(text, Promise):
                    problems.append(f"{where}: a plain string, never translated")
                    continue
                problems += [
                    f"{where}: no {language} translation"
                    for language in LANGUAGES
                    if not _translated(text, language, catalogues[language])
                ]
    assert _form_classes(), "no form found: the module list is stale"
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def extracted_catalogues(tmp_path_factory) -> Path:
    """The af and fr catalogues as ``makemessages`` makes them from today's sources."""
    if not shutil.which("xgettext"):
        pytest.skip("gettext is not installed")
    copy = tmp_path_factory.mktemp("sources") / "project"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "var", "node_modules", "staticfiles", "__pycache__", "test-artifacts",
            ".pytest_cache", ".ruff_cache", ".hypothesis", "*.mo",
        ),
    )
    languages = [arg for language in LANGUAGES for arg in ("-l", language)]
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", *languages, "--no-location",
         "--ignore=tests/*", "--ignore=bench/*", "--ignore=scripts/*", "--ignore=docs/*"],
        cwd=copy, check=True, capture_output=True, timeout=300,
    )
    return copy / "locale"


def _msgids(po_text: str) -> list[str]:
    """The msgids of a .po text, continuation lines joined (the header's is empty)."""
    msgids, current = [], None
    for line in po_text.splitlines():
        if line.startswith("msgid "):
            current = [line[len("msgid ") :]]
        elif current is not None and line.startswith('"'):
            current.append(line)
        elif current is not None:
            msgids.append("".join(part.strip()[1:-1] for part in current))
            current = None
    return msgids


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_translated(extracted_catalogues, language):
    po = extracted_catalogues / language / "LC_MESSAGES" / "django.po"
    missing = []
    for selection in ("--untranslated", "--only-fuzzy"):
        out = subprocess.run(
            ["msgattrib", selection, "--no-wrap", str(po)], check=True, capture_output=True, text=True
        ).stdout
        missing += [msgid for msgid in _msgids(out) if msgid]
    assert not missing, f"{len(missing)} strings without a {language} translation:\n" + "\n".join(missing)


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_its_source(tmp_path, language):
    if not shutil.which("msgfmt"):
        pytest.skip("gettext is not installed")
    folder = ROOT / "locale" / language / "LC_MESSAGES"
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "-o", str(fresh), str(folder / "django.po")], check=True)
    with open(fresh, "rb") as compiled:
        expected = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    assert _catalogue(language) == expected, "run manage.py compilemessages"
